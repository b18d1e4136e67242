#include "workloads/ml_apps/register.hpp"

#include "workloads/ml_apps/ml_apps.hpp"

namespace tlmgpu {
void append_ml_workloads(std::vector<WorkloadEntry>& out) {
  out.push_back(bwc_workload());
  out.push_back(logreg_workload());
}
} // namespace tlmgpu
