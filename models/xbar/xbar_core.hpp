// Kernel-free part of the crossbar: packet sizes in flits and per-port links
// for the request and reply networks. Links book busy intervals
// (IntervalResource): in arrival-time order in LT, where SMs call in an order
// unrelated to time, and in call order (busy-until) in AT, whose output links
// are an in-order queue (a packet held at its input holds up the output).
#pragma once

#include "models/xbar/xbar_spec.hpp"
#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/types.hpp"

#include <bit>
#include <vector>

namespace tlmgpu {

// hLRC traffic classes (models/hlrc), counted apart under gpu.xbar.hlrc.
// Ownership requests and grants travel as the atomic's own payload; the rest
// are side-band packets (XbarModule::hlrc_packet). Grants, recalls and
// release acks use the reply network, the others the request network.
enum class HlrcTraffic : uint8_t {
  OwnershipRequest,   // atomic/red asking for a line (carries its operands)
  Grant,              // the line's data back to the new owner (whole line)
  Recall,             // home -> owner: give the line back (header)
  RecallWriteback,    // owner -> home: dirty sectors (header only if clean)
  EvictionRelease,    // owner -> home: capacity eviction of an owned line
  KernelEndWriteback, // owner -> home: release at kernel end or a fence
  ReleaseAck,         // home -> owner: acknowledges a release (header)
  Count
};
inline const char* hlrc_traffic_name(HlrcTraffic c) {
  static const char* const names[] = {
      "ownership_request",    "grant",      "recall", "recall_writeback", "eviction_release",
      "kernel_end_writeback", "release_ack"};
  return names[size_t(c)];
}
inline bool hlrc_on_reply_network(HlrcTraffic c) {
  return c == HlrcTraffic::Grant || c == HlrcTraffic::Recall || c == HlrcTraffic::ReleaseAck;
}

class XbarCore {
public:
  XbarCore(const XbarSpec& spec, unsigned sm_ports, unsigned slice_ports, unsigned sector_bytes,
           Booking booking = Booking::CallOrder)
      : spec_(spec), sector_bytes_(sector_bytes), req_in_(sm_ports, IntervalResource(booking)),
        req_out_(slice_ports, IntervalResource(booking)),
        resp_in_(slice_ports, IntervalResource(booking)),
        resp_out_(sm_ports, IntervalResource(booking)) {
    for (auto* v : {&req_in_, &resp_out_}) // one initiator's own ports (WaitTally)
      for (IntervalResource& r : *v)
        r.set_private();
  }

  // Data bytes a packet carries. Requests: stores and atomics carry their
  // sectors (operands); loads only a header. Replies: loads and atomics return
  // their sectors; stores and reds are acknowledged with a header.
  unsigned request_bytes(const GpuAccess& a) const {
    bool carries = a.kind == AccessKind::Store || a.is_rmw() || a.kind == AccessKind::Eviction;
    return carries ? std::popcount(a.sector_mask) * sector_bytes_ : 0;
  }
  unsigned reply_bytes(const GpuAccess& a) const {
    if (rmw_reply_bytes_ != 0 && a.is_rmw()) return rmw_reply_bytes_;
    bool carries =
        a.kind == AccessKind::Load || a.kind == AccessKind::Fill || a.kind == AccessKind::Atomic;
    return carries ? std::popcount(a.sector_mask) * sector_bytes_ : 0;
  }
  unsigned flits(unsigned bytes) const { return spec_.flits(bytes); }
  // hLRC: every atomic/red reply is an ownership grant carrying `bytes` (the
  // whole line); 0 (default) = replies as in the table above.
  void set_rmw_reply_bytes(unsigned bytes) { rmw_reply_bytes_ = bytes; }

  // Cycle the packet's tail leaves the switch toward its destination, given
  // the cycle it is offered at the source port. Cut-through: the output link
  // is claimed when the input link starts sending. `floor`: no packet will be
  // offered before it any more (LT: the kernel's time), so the links forget
  // bookings that ended by then. `ahead`: the packet is offered in the future
  // (a side-band leg booked in advance, XbarModule::hlrc_packet); in AT's
  // in-order links it must not hold up the packets offered before it
  // (IntervalResource::acquire_ahead).
  Cycle traverse_request(unsigned sm, unsigned slice, unsigned flits, Cycle offered,
                         Cycle floor = 0, bool ahead = false) {
    return traverse(req_in_[sm], req_out_[slice], flits, offered, floor, ahead);
  }
  Cycle traverse_reply(unsigned slice, unsigned sm, unsigned flits, Cycle offered, Cycle floor = 0,
                       bool ahead = false) {
    return traverse(resp_in_[slice], resp_out_[sm], flits, offered, floor, ahead);
  }
  uint64_t link_wait_cycles() const {
    uint64_t w = 0;
    for (auto* v : {&req_in_, &req_out_, &resp_in_, &resp_out_})
      for (const IntervalResource& b : *v)
        w += b.wait_cycles();
    return w;
  }

private:
  Cycle traverse(IntervalResource& in, IntervalResource& out, unsigned flits, Cycle offered,
                 Cycle floor, bool ahead) {
    const Cycle ser = (flits + spec_.flits_per_cycle - 1) / spec_.flits_per_cycle;
    in.retire(floor);
    out.retire(floor);
    const Cycle s = ahead ? in.acquire_ahead(offered, ser) : in.acquire(offered, ser);
    // A packet whose input link is still busy (AT: serve_input moves a whole
    // burst into the switch at once) claims its output only when its head
    // gets there, at `s`: packets of other inputs offered before then go
    // first, as on the hardware's output arbiter.
    const Cycle o = ahead || s > offered ? out.acquire_ahead(s, ser) : out.acquire(s, ser);
    return o + ser + spec_.latency;
  }
  XbarSpec spec_;
  unsigned sector_bytes_, rmw_reply_bytes_ = 0;
  std::vector<IntervalResource> req_in_, req_out_, resp_in_, resp_out_;
};

} // namespace tlmgpu
