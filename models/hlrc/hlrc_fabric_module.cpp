#include "models/hlrc/hlrc_fabric_module.hpp"
#include "tlmgpu/invariant.hpp"

#include "models/l1/l1_module.hpp"
#include "models/l2/l2_module.hpp"
#include "models/xbar/xbar_module.hpp"

namespace tlmgpu {

HlrcFabric::HlrcFabric(SimContext& ctx) : ctx_(ctx), sm_clk_(1), l2_clk_(1) {}

HlrcFabric& HlrcFabric::of(SimContext& ctx) {
  return ctx.shared<HlrcFabric>("hlrc", [&ctx] { return std::make_unique<HlrcFabric>(ctx); });
}

void HlrcFabric::attach_l1(uint16_t sm, L1Module* l1) {
  if (l1s_.size() <= sm) l1s_.resize(sm + 1u, nullptr);
  l1s_[sm] = l1;
  // Times come from the blocks themselves (every SM of a GPU shares one
  // clock and one L1 latency), never from the platform.
  sm_clk_ = l1->clock();
  l1_latency_ = l1->latency();
}

void HlrcFabric::attach_l2(uint32_t slice, L2Module* l2) {
  if (l2s_.size() <= slice) l2s_.resize(slice + 1u, nullptr);
  l2s_[slice] = l2;
  l2_clk_ = l2->clock();
}

// Packets carry whole sectors, as the L1's write-backs do.
unsigned HlrcFabric::dirty_sector_bytes(const Writeback& wb) const {
  const unsigned sb = ctx_.net.sector_bytes, lb = ctx_.net.line_bytes;
  unsigned n = 0;
  for (unsigned off = 0; off < lb; off += sb)
    n += wb.dirty.any(off, sb) ? sb : 0;
  return n;
}

Cycle HlrcFabric::write_back_leg(uint32_t slice, uint16_t owner, std::optional<Writeback>& data,
                                 const sc_core::sc_time& answered) {
  const unsigned bytes = data ? dirty_sector_bytes(*data) : 0;
  if (bytes == 0) data.reset();
  const Clock& x = xbar_->clock();
  const Cycle at_home = xbar_->hlrc_packet(HlrcTraffic::RecallWriteback, owner, slice, bytes,
                                           ctx_.timed() ? x.at_or_after(answered) : 0);
  return ctx_.timed() ? l2_clk_.at_or_after(x.cycles(at_home)) : 0;
}

HlrcRecall HlrcFabric::recall(uint32_t slice, uint16_t owner, Addr line, Cycle start,
                              bool may_defer) {
  TLMGPU_CHECK(owner < l1s_.size());
  const Clock& x = xbar_->clock();
  const Cycle at_owner =
      xbar_->hlrc_packet(HlrcTraffic::Recall, owner, slice, 0,
                         ctx_.timed() ? x.at_or_after(l2_clk_.cycles(start)) : 0);
  HlrcRecall r;
  const HlrcAnswer a = l1s_[owner]->hlrc_recall(line, may_defer, r.data);
  if (a == HlrcAnswer::Deferred) {
    TLMGPU_CHECK(deferred_.count(line) == 0);
    deferred_[line] = Deferred{slice, owner, at_owner};
    r.deferred = true;
    return r;
  }
  // The owner's L1 looks the line up (one L1 access) before answering.
  const sc_core::sc_time answered = x.cycles(at_owner) + sm_clk_.cycles(l1_latency_);
  r.back = std::max(start, write_back_leg(slice, owner, r.data, answered));
  return r;
}

void HlrcFabric::answer(uint16_t owner, Addr line, std::optional<Writeback> wb, Cycle at) {
  auto it = deferred_.find(line);
  TLMGPU_CHECK(it != deferred_.end() && it->second.owner == owner);
  const Deferred d = it->second;
  deferred_.erase(it);
  // The owner answers once both the recall and the grant are there, after
  // serving its waiting requests (one L1 access).
  const sc_core::sc_time answered =
      std::max(xbar_->clock().cycles(d.recall_at_owner), sm_clk_.cycles(at)) +
      sm_clk_.cycles(l1_latency_);
  const Cycle back = write_back_leg(d.slice, owner, wb, answered);
  l2s_[d.slice]->hlrc_recall_done(line, std::move(wb), back);
}

Cycle HlrcFabric::release(uint16_t sm, const Writeback& wb, HlrcRelease why, Cycle at) {
  const uint32_t slice = ctx_.address_map.slice_of(wb.line);
  TLMGPU_CHECK(slice < l2s_.size());
  const Clock& x = xbar_->clock();
  const HlrcTraffic cls =
      why == HlrcRelease::Eviction ? HlrcTraffic::EvictionRelease : HlrcTraffic::KernelEndWriteback;
  const Cycle arrive = xbar_->hlrc_packet(cls, sm, slice, dirty_sector_bytes(wb),
                                          ctx_.timed() ? x.at_or_after(sm_clk_.cycles(at)) : 0);
  const sc_core::sc_time t = ctx_.timed() ? x.cycles(arrive) : sc_core::SC_ZERO_TIME;
  l2s_[slice]->hlrc_release(sm, wb, ctx_.timed() ? l2_clk_.at_or_after(t) : 0);
  xbar_->hlrc_packet(HlrcTraffic::ReleaseAck, sm, slice, 0, arrive);
  return ctx_.timed() ? std::max(at, sm_clk_.at_or_after(t)) : at;
}

Cycle HlrcFabric::grant_arrival(Cycle leave) const {
  if (!ctx_.timed()) return leave;
  const XbarSpec& s = xbar_->spec();
  const Cycle xc =
      s.latency + (xbar_->flits(ctx_.net.line_bytes) + s.flits_per_cycle - 1) / s.flits_per_cycle;
  return l2_clk_.at_or_after(l2_clk_.cycles(leave) + xbar_->clock().cycles(xc));
}

} // namespace tlmgpu
