#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {
WorkloadEntry bfs_workload();
} // namespace tlmgpu
