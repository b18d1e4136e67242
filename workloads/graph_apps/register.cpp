#include "workloads/graph_apps/register.hpp"

#include "workloads/graph_apps/bc.hpp"
#include "workloads/graph_apps/bfs.hpp"
#include "workloads/graph_apps/bfs_frontier.hpp"
#include "workloads/graph_apps/cca.hpp"
#include "workloads/graph_apps/clr.hpp"
#include "workloads/graph_apps/mis.hpp"
#include "workloads/graph_apps/pagerank.hpp"
#include "workloads/graph_apps/sssp.hpp"

namespace tlmgpu {
void append_graph_workloads(std::vector<WorkloadEntry>& out) {
  out.push_back(bfs_workload());
  out.push_back(bfs_frontier_workload());
  out.push_back(sssp_workload());
  out.push_back(pagerank_workload());
  out.push_back(cca_workload());
  out.push_back(clr_workload());
  out.push_back(mis_workload());
  out.push_back(bc_workload());
}
} // namespace tlmgpu
