#pragma once

#include "tlmgpu/sim/workload.hpp"

namespace tlmgpu {
WorkloadEntry sssp_workload();
} // namespace tlmgpu
