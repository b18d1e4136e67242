#include "workloads/graph_apps/edge_frontier.hpp"

#include "models/host/host_module.hpp"
#include "models/iru/iru_module.hpp"
#include "tlmgpu/params.hpp"

#include <bit>

namespace tlmgpu::graph_apps {

WarpTask take_element(Warp& w, const ContractSource& s, ContractElement& out, unsigned want) {
  if (s.iru.partitions) {
    IruLoad got;
    co_await load_iru(w, s.iru, got, want);
    out = {got.index, got.secondary, got.position, got.active};
    co_return;
  }
  const Lanes<uint32_t> pos = w.global_thread_id().as<uint32_t>();
  out.pos = pos;
  out.active = first_threads(w, s.n);
  if (out.active.empty()) co_return;
  out.edge = co_await w.load<uint32_t>(address_of<uint32_t>(s.edges, pos), out.active);
  if (want & kIruSecondary)
    out.weight = co_await w.load<uint32_t>(address_of<uint32_t>(s.weights, pos), out.active);
}

WarpTask reserve(Warp& w, Addr count, const Lanes<uint32_t>& n, Mask m, Lanes<uint32_t>& first) {
  if (m.empty()) co_return;
  uint32_t total = 0;
  const Lanes<uint32_t> before = Lanes<uint32_t>::generate([&](unsigned i) {
    const uint32_t at = total;
    if (m.test(i)) total += n[i];
    return at;
  });
  co_await w.compute(uint32_t(std::bit_width(w.lane_count())) - 1); // log2(width) shuffle steps
  const unsigned leader = m.first();
  const Lanes<uint32_t> base = co_await w.atomic<uint32_t>(
      AtomicOp::Add, Lanes<Addr>(count), Lanes<uint32_t>(total), Mask::lane(leader));
  first = Lanes<uint32_t>(base[leader]) + before;
}

WarpTask csr_row(Warp& w, const DeviceCsr& g, const Lanes<uint32_t>& v, Mask m,
                 Lanes<uint32_t>& first, Lanes<uint32_t>& degree) {
  first = co_await w.load<uint32_t>(address_of<uint32_t>(g.row_offsets, v), m);
  const Lanes<uint32_t> end =
      co_await w.load<uint32_t>(address_of<uint32_t>(g.row_offsets, v + Lanes<uint32_t>(1u)), m);
  degree = end - first;
}

WarpTask expand_arcs(Warp& w, const DeviceCsr& g, const Lanes<uint32_t>& v, Mask m, Addr count,
                     bool with_weight, const Lanes<uint32_t>& carry, ExpandFn fn) {
  if (m.empty()) co_return;
  const Lanes<uint32_t> lo = co_await w.load<uint32_t>(address_of<uint32_t>(g.row_offsets, v), m);
  const Lanes<uint32_t> hi =
      co_await w.load<uint32_t>(address_of<uint32_t>(g.row_offsets, v + Lanes<uint32_t>(1u)), m);
  co_await w.compute(1);
  const Lanes<uint32_t> deg = hi - lo;
  // Lanes without arcs reserve nothing (a zero add would still be a lane op).
  const Mask some = m & (deg > Lanes<uint32_t>(0u));
  if (some.empty()) co_return;
  Lanes<uint32_t> shift;
  co_await reserve(w, count, deg, some, shift);
  shift -= lo;
  // A vertex with at least a warp's worth of arcs is expanded by the whole
  // warp, one arc per lane: the stride is the warp's width (32 or 64).
  const uint32_t width = w.lane_count();
  const Mask big = some & (deg >= Lanes<uint32_t>(width));
  for (Mask todo = big; todo.any(); todo.reset(todo.first())) {
    const unsigned j = todo.first();
    for (uint32_t k = 0; k < deg[j]; k += width) {
      const Lanes<uint32_t> e = Lanes<uint32_t>(lo[j] + k) + lane_index();
      const Mask em = w.active() & (e < Lanes<uint32_t>(hi[j]));
      EdgeLanes el{Lanes<uint32_t>(v[j]), {}, Lanes<uint32_t>(1u), e, Lanes<uint32_t>(deg[j])};
      el.dst = co_await w.load<uint32_t>(address_of<uint32_t>(g.col_indices, e), em);
      if (with_weight && g.weights)
        el.weight = co_await w.load<uint32_t>(address_of<uint32_t>(g.weights, e), em);
      co_await w.compute(3); // e += width, e < end, branch
      co_await fn(w, el, e + Lanes<uint32_t>(shift[j]), Lanes<uint32_t>(carry[j]), em);
    }
  }
  co_await for_each_edge(w, g, v, some & ~big, with_weight,
                         [&fn, shift, carry](Warp& wk, EdgeLanes el, Mask em) -> WarpTask {
                           co_await fn(wk, el, el.edge + shift, carry, em);
                         });
}

std::string edge_frontier_version(const WorkloadArgs& a, const std::vector<std::string>& others) {
  const std::string v = a.str("version");
  std::string names = "gpu, ";
  for (const std::string& o : others) {
    if (v == o) return v;
    names += o + ", ";
  }
  if (v == "gpu" || v == "edge-frontier" || v == "iru") return v;
  throw ConfigError("workload argument version: '" + v + "' is not " + names +
                    "edge-frontier or iru");
}

bool iscu_contract_on_iru(const WorkloadArgs& a, const std::string& version) {
  const std::string c = a.str("contract");
  if (c != "frontier" && c != "iru")
    throw ConfigError("workload argument contract: '" + c + "' is not frontier or iru");
  if (c == "iru" && version != "iscu")
    throw ConfigError("workload argument contract: iru is the ISCU's contraction on the IRU "
                      "(version=iscu), not version=" +
                      version);
  return c == "iru";
}

WorkloadArg contract_arg() {
  return {"contract", "frontier",
          "iscu: where the contraction takes its elements: frontier (the SCU's output arrays) "
          "| iru (load_iru, as the thesis' ISCU, notes 4.4)"};
}

void IruContractions::elaborate(SimContext& ctx, const std::string& version, uint32_t block,
                                bool also) {
  wanted_ = version == "iru" || also;
  if (!wanted_) return;
  if (!IruControl::of(ctx))
    throw ConfigError("workload argument version: iru needs a platform with an IRU (blocks of "
                      "type iru, e.g. examples/iru/gtx980-iru.json)");
  if (ctx.platform.sm.warp_size != 32)
    throw ConfigError("workload argument version: iru needs 32-lane warps (load_iru: the IRU "
                      "hands out 32 indices per reply), not sm.warp_size = " +
                      std::to_string(ctx.platform.sm.warp_size));
  if (block % 32)
    throw ConfigError("workload argument block: version iru needs whole 32-lane warps (load_iru), "
                      "not " +
                      std::to_string(block));
}

ContractSource IruContractions::arm(SimContext& ctx, HostModule& h, const IruConfig& c) {
  ContractSource s{c.indices, c.secondary, uint32_t(c.n), {}};
  last_armed_ = false;
  if (!wanted_) return s;
  if (!configure_iru(ctx, c, h.gpu().device_memory)) {
    ++fallback_; // iru.enabled = false: the GPU-only kernel
    return s;
  }
  ++armed_;
  last_armed_ = true;
  s.iru = IruControl::of(ctx)->device();
  return s;
}

void IruContractions::finish(SimContext& ctx) {
  if (!last_armed_ || !problem_.empty()) return;
  if (const uint64_t left = IruControl::of(ctx)->remaining())
    problem_ = "the IRU did not hand out " + std::to_string(left) + " elements of contraction " +
               std::to_string(armed_);
}

std::string IruContractions::summary(const std::string& version) const {
  std::string s = ", version " + version;
  if (!wanted_) return s;
  if (fallback_)
    return s + " (iru.enabled = false: " + std::to_string(fallback_) +
           " contractions read the frontier arrays)";
  return s + " (" + std::to_string(armed_) + " contractions on the IRU)";
}

} // namespace tlmgpu::graph_apps
