#include "models/fabric/fabric_module.hpp"

#include <algorithm>

using namespace sc_core;

namespace tlmgpu {
namespace {
sc_time ps(Picos p) {
  return sc_time(double(p), SC_PS);
}
Picos now_ps() {
  return Picos(sc_time_stamp().to_seconds() * 1e12 + 0.5);
}
} // namespace

// The link's statistics are views of the core's per-direction accounts
// (kept once, by FabricCore::reserve), not a second count per chunk.
LinkModule::LinkModule(sc_module_name n, const FabricCore& core, uint32_t link, StatGroup& parent)
    : sc_module(n), stats_(parent, core.spec().links[link].name) {
  const LinkSpec& spec = core.spec().links[link];
  for (bool fwd : {true, false}) {
    const std::string t = fwd ? "fwd" : "rev";
    const std::string dir = fwd ? spec.a + " -> " + spec.b : spec.b + " -> " + spec.a;
    const FabricCore::Direction* d = &core.direction(link, fwd);
    stats_.formula(t + "_bytes", "bytes", "bytes moved " + dir,
                   [d](StatView) { return double(d->bytes); });
    stats_.formula(t + "_chunks", "chunks", "chunks moved " + dir,
                   [d](StatView) { return double(d->chunks); });
    stats_.formula(t + "_busy_ps", "ps", "time the link was busy " + dir,
                   [d](StatView) { return double(d->busy); });
    stats_.formula(t + "_queued_ps", "ps", "time chunks waited for this link " + dir,
                   [d](StatView) { return double(d->queued); });
    stats_.formula(t + "_utilization", "", dir + ": busy / simulated time", [d](StatView) {
      const double now = sc_time_stamp().to_seconds() * 1e12;
      return now > 0 ? double(d->busy) / now : 0.0;
    });
  }
}

FabricModule::FabricModule(sc_module_name n, const FabricSpec& spec, uint32_t gpus,
                           bool whole_transfers, StatGroup& parent)
    : sc_module(n), in("in"), core_(spec, gpus), whole_(whole_transfers), stats_(parent, "fabric"),
      copies_(stats_.counter("copies", "copies", "copies moved over the fabric")),
      staged_(stats_.counter("staged_peer_copies", "copies",
                             "peer copies between GPUs without NVLink, staged through the host")) {
  in.register_b_transport(this, &FabricModule::b_transport);
  for (uint32_t l = 0; l < spec.links.size(); ++l)
    links_.push_back(std::make_unique<LinkModule>(spec.links[l].name.c_str(), core_, l, stats_));
}

void FabricModule::move(const FabricCore::Path& path, uint64_t bytes) {
  move_all({path}, {bytes});
}

// Each copy reserves its next chunk when its previous one has left, in time
// order across the copies, so they share a common hop as separate copies do.
void FabricModule::move_all(const std::vector<FabricCore::Path>& paths,
                            const std::vector<uint64_t>& bytes) {
  const uint64_t most = bytes.empty() ? 1 : *std::max_element(bytes.begin(), bytes.end());
  const uint64_t chunk = whole_ ? std::max<uint64_t>(most, 1) : core_.spec().chunk_bytes;
  std::vector<uint64_t> left = bytes;
  std::vector<Picos> ready(paths.size(), now_ps());
  std::vector<bool> started(paths.size(), false); // a copy of 0 bytes still makes one reservation
  Picos arrive = now_ps();
  for (;;) {
    size_t next = paths.size();
    for (size_t i = 0; i < paths.size(); ++i)
      if ((left[i] || !started[i]) && (next == paths.size() || ready[i] < ready[next])) next = i;
    if (next == paths.size()) break;
    const Picos now = now_ps();
    if (started[next]) wait(ps(ready[next] > now ? ready[next] - now : 0));
    const uint64_t b = std::min(left[next], chunk);
    const FabricCore::Slot s = core_.reserve(paths[next], b, now_ps());
    arrive = std::max(arrive, s.arrive);
    started[next] = true;
    left[next] -= b;
    ready[next] = s.leave; // the next chunk when this one has left the narrowest hop
  }
  const Picos now = now_ps();
  if (arrive > now) wait(ps(arrive - now));
}

FabricCore::Path FabricModule::path_of(const FabricTransfer& x) const {
  switch (x.route) {
  case FabricTransfer::Route::HostToGpu:
    return core_.host_path(x.memory, x.gpu);
  case FabricTransfer::Route::GpuToHost:
    return FabricCore::reversed(core_.host_path(x.memory, x.gpu));
  case FabricTransfer::Route::Peer:
    break;
  }
  const FabricCore::Path& p = core_.peer_path(x.peer, x.gpu);
  if (!p.empty()) return p;
  FabricCore::Path via = FabricCore::reversed(core_.host_path(x.memory, x.peer));
  const FabricCore::Path& in = core_.host_path(x.memory, x.gpu);
  via.insert(via.end(), in.begin(), in.end());
  return via;
}

void FabricModule::bundle(FabricBundle& b) {
  std::vector<FabricCore::Path> paths;
  std::vector<uint64_t> bytes;
  for (FabricTransfer& x : b.copies) {
    ++copies_;
    paths.push_back(path_of(x));
    bytes.push_back(x.bytes);
  }
  move_all(paths, bytes);
}

void FabricModule::b_transport(int, tlm::tlm_generic_payload& t, sc_time& delay) {
  FabricTransfer* x = t.get_extension<FabricTransfer>();
  FabricBundle* all = t.get_extension<FabricBundle>();
  if (!x && !all) {
    t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (delay != SC_ZERO_TIME) {
    wait(delay);
    delay = SC_ZERO_TIME;
  }
  if (all) {
    bundle(*all);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  ++copies_;
  switch (x->route) {
  case FabricTransfer::Route::HostToGpu:
    move(core_.host_path(x->memory, x->gpu), x->bytes);
    break;
  case FabricTransfer::Route::GpuToHost:
    move(FabricCore::reversed(core_.host_path(x->memory, x->gpu)), x->bytes);
    break;
  case FabricTransfer::Route::Peer: {
    const FabricCore::Path& p = core_.peer_path(x->peer, x->gpu);
    if (!p.empty()) {
      move(p, x->bytes);
      break;
    }
    // no NVLink between them: through pinned host memory, one leg after the other
    x->staged = true;
    ++staged_;
    move(FabricCore::reversed(core_.host_path(x->memory, x->peer)), x->bytes);
    move(core_.host_path(x->memory, x->gpu), x->bytes);
    break;
  }
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace tlmgpu
