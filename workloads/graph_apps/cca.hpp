#pragma once

#include "tlmgpu/sim/workload.hpp"

namespace tlmgpu {
WorkloadEntry cca_workload();
} // namespace tlmgpu
