#include "models/hlrc/hlrc_channel_module.hpp"
#include "tlmgpu/invariant.hpp"

#include "models/xbar/xbar_module.hpp"

using namespace sc_core;

namespace tlmgpu {

HlrcChannel::HlrcChannel(sc_module_name n, SimContext& ctx, XbarModule& xbar)
    : sc_module(n), from_homes("from_homes"), to_owners("to_owners"), from_owners("from_owners"),
      to_homes("to_homes"), ctx_(ctx), xbar_(xbar), sm_clk_(1), l2_clk_(1) {
  from_homes.register_b_transport(this, &HlrcChannel::from_home);
  from_owners.register_b_transport(this, &HlrcChannel::from_owner);
}

void HlrcChannel::bind_owner(uint16_t sm, tlm::tlm_target_socket<>& in,
                             tlm::tlm_initiator_socket<>& out, const Clock& clock,
                             uint32_t l1_latency) {
  if (owner_port_.size() <= sm) owner_port_.resize(sm + 1u, -1);
  TLMGPU_CHECK(owner_port_[sm] < 0 && "an SM's L1 joins the hLRC channel once");
  owner_port_[sm] = owners_++;
  to_owners.bind(in);
  out.bind(from_owners);
  // Times come from the blocks themselves (every SM of a GPU shares one
  // clock and one L1 latency), never from the platform.
  sm_clk_ = clock;
  l1_latency_ = l1_latency;
}

void HlrcChannel::bind_home(uint32_t slice, tlm::tlm_target_socket<>& in,
                            tlm::tlm_initiator_socket<>& out, const Clock& clock) {
  if (home_port_.size() <= slice) home_port_.resize(slice + 1u, -1);
  TLMGPU_CHECK(home_port_[slice] < 0 && "an L2 slice joins the hLRC channel once");
  home_port_[slice] = homes_++;
  to_homes.bind(in);
  out.bind(from_homes);
  l2_clk_ = clock;
}

void HlrcChannel::from_home(int, tlm::tlm_generic_payload& p, sc_time&) {
  HlrcMessage& m = hlrc_message(p);
  if (m.kind == HlrcMessage::Kind::Apply) { // untimed: no packet, see the message
    TLMGPU_CHECK(m.sm < owner_port_.size() && owner_port_[m.sm] >= 0);
    sc_time none = SC_ZERO_TIME;
    to_owners[owner_port_[m.sm]]->b_transport(p, none);
    return;
  }
  TLMGPU_CHECK(m.kind == HlrcMessage::Kind::Recall);
  recall(p, m);
}

void HlrcChannel::from_owner(int, tlm::tlm_generic_payload& p, sc_time&) {
  HlrcMessage& m = hlrc_message(p);
  if (m.kind == HlrcMessage::Kind::Answer)
    answer(p, m);
  else if (m.kind == HlrcMessage::Kind::Release)
    release(p, m);
  else if (m.kind == HlrcMessage::Kind::Apply) { // untimed: no packet, see the message
    m.slice = ctx_.address_map.slice_of(m.line);
    deliver_home(p, m);
  } else
    TLMGPU_CHECK(false && "an owner sends answers and releases only");
}

// Packets carry whole sectors, as the L1's write-backs do.
unsigned HlrcChannel::dirty_sector_bytes(const Writeback& wb) const {
  const unsigned sb = ctx_.net.sector_bytes, lb = ctx_.net.line_bytes;
  unsigned n = 0;
  for (unsigned off = 0; off < lb; off += sb)
    n += wb.dirty.any(off, sb) ? sb : 0;
  return n;
}

Cycle HlrcChannel::write_back_leg(uint32_t slice, uint16_t owner, std::optional<Writeback>& data,
                                  const sc_time& answered) {
  const unsigned bytes = data ? dirty_sector_bytes(*data) : 0;
  if (bytes == 0) data.reset();
  const Clock& x = xbar_.clock();
  const Cycle at_home = xbar_.hlrc_packet(HlrcTraffic::RecallWriteback, owner, slice, bytes,
                                          ctx_.timed() ? x.at_or_after(answered) : 0);
  return ctx_.timed() ? l2_clk_.at_or_after(x.cycles(at_home)) : 0;
}

// Home -> owner over the reply links; the owner answers in the same call
// (or defers), and a given line's bytes come back over the request links.
void HlrcChannel::recall(tlm::tlm_generic_payload& p, HlrcMessage& m) {
  TLMGPU_CHECK(m.sm < owner_port_.size() && owner_port_[m.sm] >= 0);
  const Clock& x = xbar_.clock();
  const Cycle at_owner =
      xbar_.hlrc_packet(HlrcTraffic::Recall, m.sm, m.slice, 0,
                        ctx_.timed() ? x.at_or_after(l2_clk_.cycles(m.sent)) : 0);
  // The owner notes when the recall reached it: its own atomics before then
  // were still its own in time (LT, "Apply").
  m.arrive = ctx_.timed() ? sm_clk_.at_or_after(x.cycles(at_owner)) : 0;
  sc_time none = SC_ZERO_TIME;
  to_owners[owner_port_[m.sm]]->b_transport(p, none);
  if (m.answer == HlrcAnswer::Deferred) {
    TLMGPU_CHECK(deferred_.count(m.line) == 0);
    deferred_[m.line] = Deferred{m.slice, m.sm, at_owner};
    return;
  }
  // The owner's L1 looks the line up (one L1 access) before answering.
  const sc_time answered = x.cycles(at_owner) + sm_clk_.cycles(l1_latency_);
  m.back = std::max(m.sent, write_back_leg(m.slice, m.sm, m.data, answered));
}

// Owner -> home, AT: a deferred recall's bytes, once the grant has arrived
// and served the requests that waited for it.
void HlrcChannel::answer(tlm::tlm_generic_payload& p, HlrcMessage& m) {
  auto it = deferred_.find(m.line);
  TLMGPU_CHECK(it != deferred_.end() && it->second.owner == m.sm);
  const Deferred d = it->second;
  deferred_.erase(it);
  // The owner answers once both the recall and the grant are there, after
  // serving its waiting requests (one L1 access).
  const sc_time answered =
      std::max(xbar_.clock().cycles(d.recall_at_owner), sm_clk_.cycles(m.sent)) +
      sm_clk_.cycles(l1_latency_);
  m.slice = d.slice;
  m.arrive = write_back_leg(d.slice, m.sm, m.data, answered);
  deliver_home(p, m);
}

// Owner -> home: the home applies the bytes and frees the line at their
// arrival; its ack is counted, not waited for.
void HlrcChannel::release(tlm::tlm_generic_payload& p, HlrcMessage& m) {
  TLMGPU_CHECK(m.data.has_value());
  m.slice = ctx_.address_map.slice_of(m.line);
  const Clock& x = xbar_.clock();
  const HlrcTraffic cls = m.why == HlrcRelease::Eviction   ? HlrcTraffic::EvictionRelease
                          : m.why == HlrcRelease::Handover ? HlrcTraffic::RecallWriteback
                                                           : HlrcTraffic::KernelEndWriteback;
  const Cycle arrive = xbar_.hlrc_packet(cls, m.sm, m.slice, dirty_sector_bytes(*m.data),
                                         ctx_.timed() ? x.at_or_after(sm_clk_.cycles(m.sent)) : 0);
  const sc_time t = ctx_.timed() ? x.cycles(arrive) : SC_ZERO_TIME;
  m.arrive = ctx_.timed() ? l2_clk_.at_or_after(t) : 0;
  deliver_home(p, m);
  xbar_.hlrc_packet(HlrcTraffic::ReleaseAck, m.sm, m.slice, 0, arrive);
  m.back = ctx_.timed() ? std::max(m.sent, sm_clk_.at_or_after(t)) : m.sent;
}

void HlrcChannel::deliver_home(tlm::tlm_generic_payload& p, HlrcMessage& m) {
  TLMGPU_CHECK(m.slice < home_port_.size() && home_port_[m.slice] >= 0);
  sc_time none = SC_ZERO_TIME;
  to_homes[home_port_[m.slice]]->b_transport(p, none);
}

Cycle HlrcChannel::grant_arrival(Cycle leave) const {
  if (!ctx_.timed()) return leave;
  const XbarSpec& s = xbar_.spec();
  const Cycle xc =
      s.latency + (xbar_.flits(ctx_.net.line_bytes) + s.flits_per_cycle - 1) / s.flits_per_cycle;
  return l2_clk_.at_or_after(l2_clk_.cycles(leave) + xbar_.clock().cycles(xc));
}

} // namespace tlmgpu
