#pragma once

#include "tlmgpu/sim/workload.hpp"

namespace tlmgpu {
WorkloadEntry bfs_workload();
} // namespace tlmgpu
