#pragma once

#include "tlmgpu/sim/workload.hpp"

namespace tlmgpu {
WorkloadEntry pagerank_workload();
} // namespace tlmgpu
