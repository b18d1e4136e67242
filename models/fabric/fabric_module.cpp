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

LinkModule::LinkModule(sc_module_name n, const LinkSpec& spec, StatGroup& parent)
    : sc_module(n), stats_(parent, spec.name) {
  const std::string dir[2] = {spec.a + " -> " + spec.b, spec.b + " -> " + spec.a};
  const char* tag[2] = {"fwd", "rev"};
  for (int d = 0; d < 2; ++d) {
    const std::string t = tag[d];
    bytes_[d] = &stats_.counter(t + "_bytes", "bytes", "bytes moved " + dir[d]);
    chunks_[d] = &stats_.counter(t + "_chunks", "chunks", "chunks moved " + dir[d]);
    busy_ps_[d] = &stats_.counter(t + "_busy_ps", "ps", "time the link was busy " + dir[d]);
    queued_ps_[d] =
        &stats_.counter(t + "_queued_ps", "ps", "time chunks waited for this link " + dir[d]);
  }
  stats_.formula("fwd_utilization", "", spec.a + " -> " + spec.b + ": busy / simulated time",
                 [this](const StatView&) {
                   const double t = sc_time_stamp().to_seconds() * 1e12;
                   return t > 0 ? double(busy_ps_[0]->value()) / t : 0.0;
                 });
  stats_.formula("rev_utilization", "", spec.b + " -> " + spec.a + ": busy / simulated time",
                 [this](const StatView&) {
                   const double t = sc_time_stamp().to_seconds() * 1e12;
                   return t > 0 ? double(busy_ps_[1]->value()) / t : 0.0;
                 });
}

void LinkModule::account(bool forward, uint64_t bytes, Picos busy, Picos queued) {
  const int d = forward ? 0 : 1;
  *bytes_[d] += bytes;
  ++*chunks_[d];
  *busy_ps_[d] += busy;
  *queued_ps_[d] += queued;
}

FabricModule::FabricModule(sc_module_name n, const FabricSpec& spec, uint32_t gpus,
                           bool whole_transfers, StatGroup& parent)
    : sc_module(n), in("in"), core_(spec, gpus), whole_(whole_transfers), stats_(parent, "fabric"),
      copies_(stats_.counter("copies", "copies", "copies moved over the fabric")),
      staged_(stats_.counter("staged_peer_copies", "copies",
                             "peer copies between GPUs without NVLink, staged through the host")) {
  in.register_b_transport(this, &FabricModule::b_transport);
  for (const LinkSpec& l : spec.links)
    links_.push_back(std::make_unique<LinkModule>(l.name.c_str(), l, stats_));
}

void FabricModule::move(const FabricCore::Path& path, uint64_t bytes) {
  const uint64_t chunk = whole_ ? std::max<uint64_t>(bytes, 1) : core_.spec().chunk_bytes;
  Picos arrive = now_ps();
  uint64_t left = bytes;
  do {
    const uint64_t b = std::min(left, chunk);
    const Picos ready = now_ps();
    std::vector<Picos> queued_before;
    for (const FabricCore::Hop& h : path)
      queued_before.push_back(core_.direction(h.link, h.forward).queued);
    const FabricCore::Slot s = core_.reserve(path, b, ready);
    for (size_t k = 0; k < path.size(); ++k) {
      const FabricCore::Hop& h = path[k];
      links_[h.link]->account(h.forward, b, core_.hop_time(h, b),
                              core_.direction(h.link, h.forward).queued - queued_before[k]);
    }
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
