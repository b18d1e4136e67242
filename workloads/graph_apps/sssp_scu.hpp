// SSSP on the stream compaction unit (seed-003 §2.7, thesis Figs. 4.6 and
// 4.10), without the near-far split as `sssp version=edge-frontier` (every
// improved vertex joins the next frontier). Each round:
//   GPU sssp_prepare:  per frontier vertex v: index (row start), count
//                      (degree) and cost (dist[v]); clears lookup[v];
//   scu-filter only:   SCU access-expansion of the arcs in generate mode with
//                      the unique-best-cost filter (cost = weight + dist of
//                      the source, a table of (ID, best cost) in device
//                      memory): the filter vector, applied by the next three;
//   SCU access-expansion: the edge frontier (arc heads) and the weight
//                      frontier (arc weights);
//   SCU replication:   the source's cost per arc (the "+=" of Fig. 4.6 is
//                      the contraction's add, notes P14's GPU alternative);
//   GPU sssp_contract: cost = weight + source cost; prev = atomicMin(dist[u],
//                      cost); prev > cost: lookup[u] = position (Fig. 5.9);
//   GPU sssp_select:   keep[i] = (lookup[u] == i) (the lookup-table filter);
//   SCU data compaction: the next node frontier.
// scu-filter-group (Fig. 4.10, the thesis' enhanced SCU for SSSP): after
// the filter op, a generate-group op over the same arcs writes a gather
// list that puts arcs whose heads share a line of `dist` together; the
// three expansions apply the filter vector and the list (notes P12), and
// the next frontier's compaction is grouped the same way (a generate-group
// op over the kept vertices first: "contract, near"; no far pile here).
// iscu (scu.filter_unit = iru): the expansion is one SCU operation whose
// best-cost filter runs in the IRU partitions (min_u32 on the cost, within
// the operation); the SCU writes the survivors' heads and whole path costs
// (no filter vector, weight or source-cost frontier) [A].
#pragma once

#include "workloads/graph_apps/graph_app.hpp"

#include <functional>
#include <string>
#include <vector>

namespace tlmgpu {
class ScuModule;
}

namespace tlmgpu::graph_apps {

// Saturating add: a path longer than 2^32 - 2 stays "very far", never wraps.
inline Lanes<uint32_t> path_cost(const Lanes<uint32_t>& dist, const Lanes<uint32_t>& weight) {
  return Lanes<uint32_t>::generate([&](unsigned i) {
    const uint64_t s = uint64_t(dist[i]) + weight[i];
    return s >= kInf ? kInf - 1 : uint32_t(s);
  });
}

// The SCU versions' platform checks, before the simulation (ConfigError,
// exit 2): scu and scu-filter need an SCU, scu-filter its in-memory table
// (scu.filter_unit = hash), iscu (when `iscu` is offered) the IRU as the
// filter unit. Other versions pass.
void check_scu_version(SimContext& ctx, const std::string& version, bool iscu);

// GraphApp::launch_threads for the driver.
using LaunchFn = std::function<void(const std::string& kernel, uint64_t threads,
                                    std::function<WarpTask(Warp&)>)>;

struct ScuSsspRun {
  uint32_t source = 0;
  bool filter = false;     // scu-filter: the best-cost filter on the expansion
  bool iscu = false;       // iscu: that filter in the IRU partitions, one op
  bool group = false;      // scu-filter-group: grouping by the line of dist too
  uint32_t hash_sets = 0;  // its table's sets (0: vertices / ways)
  uint64_t max_rounds = 0; // the iteration cap
  uint64_t rounds = 0;     // out: rounds run
  bool converged = true;   // out: false when max_rounds stopped it
};

// Runs SSSP from r.source on `scu`, returns the distances.
std::vector<uint32_t> sssp_on_scu(HostModule& h, ScuModule& scu, const DeviceCsr& g, ScuSsspRun& r,
                                  const LaunchFn& launch);

} // namespace tlmgpu::graph_apps
