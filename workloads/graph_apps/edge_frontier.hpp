// The thesis' phase split of a graph round on the GPU (seed-003 §1.3-1.5)
// and its IRU instrumentation (§3.2, thesis Figs. 5.8-5.10): an expansion
// kernel writes an edge frontier (and a parallel weight frontier), and a
// contraction kernel takes one element of it per thread, either
//   version=edge-frontier  from the frontier arrays (`edge =
//                          edge_frontier[pos]`, the thesis' NOT_INSTRUMENTED
//                          baseline), or
//   version=iru            from load_iru (USE_IRU): the IRU hands each warp
//                          elements whose targets share memory blocks, and
//                          merges equal indices on the way (min_u32, add_f32).
// bfs-frontier, sssp and pagerank share these pieces (README.md, "IRU
// versions").
#pragma once

#include "models/iru/iru_kernel.hpp"
#include "workloads/graph_apps/graph_app.hpp"

#include <string>
#include <vector>

namespace tlmgpu::graph_apps {

// Where a contraction's elements come from.
struct ContractSource {
  Addr edges = 0, weights = 0; // the edge and weight frontiers (weights 0: none)
  uint32_t n = 0;              // elements
  IruDevice iru;               // partitions == 0: the frontier arrays
};

// One element per lane: its index (the edge's destination), secondary word
// (its weight) and original position; `active` = the lanes that got one.
struct ContractElement {
  Lanes<uint32_t> edge, weight, pos;
  Mask active;
};

// The contraction's first lines: `pos < n` and the frontier loads, or
// load_iru(edge [, weight] [, pos]) (want: kIruSecondary, kIruPosition).
// With the IRU every lane of the warp must run it (no `pos < n` test).
WarpTask take_element(Warp& w, const ContractSource& s, ContractElement& out, unsigned want);

// Warp-aggregated append: lanes in `m` reserve n[i] consecutive slots of a
// queue whose element counter is `count`; first[i] is lane i's first slot.
// One atomicAdd per warp (a warp prefix sum, shuffles on the hardware, gives
// each lane its offset), not one per lane on the one word.
WarpTask reserve(Warp& w, Addr count, const Lanes<uint32_t>& n, Mask m, Lanes<uint32_t>& first);

// The CSR row of each lane's vertex v (lanes in `m`): its first arc and its
// out-degree (two row_offsets loads), for the SCU versions' prepare kernels.
WarpTask csr_row(Warp& w, const DeviceCsr& g, const Lanes<uint32_t>& v, Mask m,
                 Lanes<uint32_t>& first, Lanes<uint32_t>& degree);

// The expansion (Merrill et al.'s gathering, seed-003 §1.3): lanes in `m`
// append their vertex v's out-arcs to an edge frontier (reserve() on its
// element counter `count`). A list of 32 arcs or more
// is walked by the whole warp, 32 consecutive arcs a step (the warp-based
// gathering: a hub no longer holds one lane for its whole list), the rest
// lane by lane (for_each_edge). fn runs once per step with each lane's arc,
// its slot in the frontier, and `carry` of the arc's tail (a per-vertex
// word the caller loaded, e.g. SSSP's dist[v]).
using ExpandFn =
    std::function<WarpTask(Warp&, EdgeLanes, Lanes<uint32_t> slot, Lanes<uint32_t> carry, Mask)>;
WarpTask expand_arcs(Warp& w, const DeviceCsr& g, const Lanes<uint32_t>& v, Mask m, Addr count,
                     bool with_weight, const Lanes<uint32_t>& carry, ExpandFn fn);

// The `version` argument of the frontier workloads' IRU versions: "gpu"
// (the workload's own kernels), "edge-frontier" or "iru"; `others` lists
// more names a workload accepts. ConfigError naming the argument otherwise.
std::string edge_frontier_version(const WorkloadArgs& a,
                                  const std::vector<std::string>& others = {});

// The `contract` argument of the ISCU versions: true for "iru" (the
// contraction's elements from load_iru too, the thesis' ISCU: notes §4.4),
// false for "frontier" (the SCU's output arrays, the default). "iru" with a
// version other than iscu is a ConfigError naming the argument.
bool iscu_contract_on_iru(const WorkloadArgs& a, const std::string& version);
// Its WorkloadInfo argument.
WorkloadArg contract_arg();

// The host's side of the IRU versions: arms the IRU before each
// contraction and checks after it that the IRU delivered every element.
class IruContractions {
public:
  // version=iru (or `also`: the ISCU's contraction on the IRU) needs an IRU
  // placed on the platform and, for load_iru, whole 32-lane warps:
  // ConfigError (exit 2) before the simulation starts.
  void elaborate(SimContext& ctx, const std::string& version, uint32_t block, bool also = false);
  bool wanted() const { return wanted_; }
  // configure_iru for one contraction over `c.n` elements; the source for
  // take_element (reading the frontier arrays when the IRU is off or
  // iru.enabled is false: the thesis' GPU-only fallback).
  ContractSource arm(SimContext& ctx, HostModule& h, const IruConfig& c);
  // After the contraction kernel (synchronized): elements the IRU did not
  // hand out are a failed run (problem()).
  void finish(SimContext& ctx);
  std::string problem() const { return problem_; }
  // ", version V (N contractions on the IRU)".
  std::string summary(const std::string& version) const;

private:
  bool wanted_ = false, last_armed_ = false;
  uint64_t armed_ = 0, fallback_ = 0;
  std::string problem_;
};

} // namespace tlmgpu::graph_apps
