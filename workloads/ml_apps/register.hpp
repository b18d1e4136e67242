// Registration hook for the ML-training-like reductions (bwc, logreg).
#pragma once

#include "workloads/workload.hpp"

#include <vector>

namespace tlmgpu {
void append_ml_workloads(std::vector<WorkloadEntry>& out);
} // namespace tlmgpu
