// hLRC traffic on the crossbar (models/hlrc/README.md): the class counters,
// the recall channel (a child module, HlrcChannel) and the link bookings of
// its packets. Same class as xbar_module.cpp; split to keep the baseline file
// free of hLRC details.
#include "models/xbar/xbar_module.hpp"
#include "tlmgpu/invariant.hpp"

#include "models/hlrc/hlrc_fabric_module.hpp"

namespace tlmgpu {

void XbarModule::hlrc_init() {
  // Grants carry the whole line, whatever sectors the atomic touched.
  core_.set_rmw_reply_bytes(ctx_.net.line_bytes);
  auto channel = std::make_unique<HlrcChannel>("hlrc_channel", ctx_, *this);
  HlrcFabric::of(ctx_).attach_channel(*channel);
  hlrc_channel_ = std::move(channel);
  hlrc_stats_ = std::make_unique<StatGroup>(stats_, "hlrc");
  for (size_t c = 0; c < size_t(HlrcTraffic::Count); ++c) {
    const std::string n = hlrc_traffic_name(HlrcTraffic(c));
    const std::string net =
        hlrc_on_reply_network(HlrcTraffic(c)) ? "reply network" : "request network";
    hlrc_packets_[c] =
        &hlrc_stats_->counter(n + "_packets", "packets", "hLRC " + n + " packets (" + net + ")");
    hlrc_flits_[c] = &hlrc_stats_->counter(
        n + "_flits", "flits", "hLRC " + n + " flits, included in the crossbar's flits and bytes");
  }
  hlrc_stats_->formula("bytes", "bytes", "flit bytes of every hLRC class (part of xbar.bytes)",
                       [this](StatView v) {
                         uint64_t f = 0;
                         for (Counter* c : hlrc_flits_)
                           f += c->value(v);
                         return double(f * spec_.flit_bytes);
                       });
}

void XbarModule::hlrc_count(HlrcTraffic cls, unsigned flits) {
  ++*hlrc_packets_[size_t(cls)];
  *hlrc_flits_[size_t(cls)] += flits;
}

Cycle XbarModule::hlrc_packet(HlrcTraffic cls, unsigned sm, unsigned slice, unsigned data_bytes,
                              Cycle offered) {
  TLMGPU_CHECK(hlrc_stats_ && "hlrc_packet outside l1.atomic_mode = hlrc");
  const unsigned f = core_.flits(data_bytes);
  const bool reply = hlrc_on_reply_network(cls);
  ++(reply ? resp_packets_ : req_packets_);
  (reply ? resp_flits_ : req_flits_) += f;
  bytes_ += uint64_t(f) * spec_.flit_bytes;
  hlrc_count(cls, f);
  if (!ctx_.timed()) return offered;
  // LT: nothing is offered before the kernel's time. The legs of one message
  // are booked in one call, ahead of the traffic AT offers in the meantime.
  const Cycle now = clk_.now();
  return reply ? core_.traverse_reply(slice, sm, f, offered, now, true)
               : core_.traverse_request(sm, slice, f, offered, now, true);
}

} // namespace tlmgpu
