#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {
WorkloadEntry sssp_workload();
} // namespace tlmgpu
