#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {
WorkloadEntry pagerank_workload();
} // namespace tlmgpu
