#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {
WorkloadEntry bfs_frontier_workload();
} // namespace tlmgpu
