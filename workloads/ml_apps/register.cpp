#include "workloads/ml_apps/register.hpp"

namespace tlmgpu {
void append_ml_workloads(std::vector<WorkloadEntry>& out) { (void)out; }
} // namespace tlmgpu
