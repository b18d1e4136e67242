#include "workloads/graph_apps/register.hpp"

namespace tlmgpu {
void append_graph_workloads(std::vector<WorkloadEntry>& out) { (void)out; }
} // namespace tlmgpu
