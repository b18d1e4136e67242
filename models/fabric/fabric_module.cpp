#include "models/fabric/fabric_module.hpp"

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
  const uint64_t chunk = whole_ ? std::max<uint64_t>(bytes, 1) : core_.spec().chunk_bytes;
  Picos arrive = now_ps();
  uint64_t left = bytes;
  do {
    const uint64_t b = std::min(left, chunk);
    const Picos ready = now_ps();
    const FabricCore::Slot s = core_.reserve(path, b, ready);
    arrive = s.arrive;
    left -= b;
    // the next chunk is reserved when this one has left the narrowest hop
    if (left) wait(ps(s.leave - ready));
  } while (left);
  const Picos now = now_ps();
  if (arrive > now) wait(ps(arrive - now));
}

void FabricModule::b_transport(int, tlm::tlm_generic_payload& t, sc_time& delay) {
  FabricTransfer* x = t.get_extension<FabricTransfer>();
  if (!x) {
    t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (delay != SC_ZERO_TIME) {
    wait(delay);
    delay = SC_ZERO_TIME;
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
