// Kernel-free part of the crossbar: packet sizes in flits and per-port
// busy-until links for the request and reply networks.
#pragma once

#include "models/xbar/xbar_spec.hpp"
#include "tlmgpu/timing.hpp"
#include "tlmgpu/types.hpp"

#include <bit>
#include <vector>

namespace tlmgpu {

class XbarCore {
public:
  XbarCore(const XbarSpec& spec, unsigned sm_ports, unsigned slice_ports, unsigned sector_bytes)
      : spec_(spec), sector_bytes_(sector_bytes), req_in_(sm_ports), req_out_(slice_ports),
        resp_in_(slice_ports), resp_out_(sm_ports) {}

  // Data bytes a packet carries. Requests: stores and atomics carry their
  // sectors (operands); loads only a header. Replies: loads and atomics return
  // their sectors; stores and reds are acknowledged with a header.
  unsigned request_bytes(const GpuAccess& a) const {
    bool carries = a.kind == AccessKind::Store || a.is_rmw() || a.kind == AccessKind::Eviction;
    return carries ? std::popcount(a.sector_mask) * sector_bytes_ : 0;
  }
  unsigned reply_bytes(const GpuAccess& a) const {
    bool carries =
        a.kind == AccessKind::Load || a.kind == AccessKind::Fill || a.kind == AccessKind::Atomic;
    return carries ? std::popcount(a.sector_mask) * sector_bytes_ : 0;
  }
  unsigned flits(unsigned bytes) const { return spec_.flits(bytes); }

  // Cycle the packet's tail leaves the switch toward its destination, given
  // the cycle it is offered at the source port. Cut-through: the output link
  // is claimed when the input link starts sending.
  Cycle traverse_request(unsigned sm, unsigned slice, unsigned flits, Cycle offered) {
    return traverse(req_in_[sm], req_out_[slice], flits, offered);
  }
  Cycle traverse_reply(unsigned slice, unsigned sm, unsigned flits, Cycle offered) {
    return traverse(resp_in_[slice], resp_out_[sm], flits, offered);
  }
  uint64_t link_wait_cycles() const {
    uint64_t w = 0;
    for (auto* v : {&req_in_, &req_out_, &resp_in_, &resp_out_})
      for (const BusyUntil& b : *v)
        w += b.wait_cycles();
    return w;
  }

private:
  Cycle traverse(BusyUntil& in, BusyUntil& out, unsigned flits, Cycle offered) {
    const Cycle ser = (flits + spec_.flits_per_cycle - 1) / spec_.flits_per_cycle;
    Cycle s = in.acquire(offered, ser);
    Cycle o = out.acquire(s, ser);
    return o + ser + spec_.latency;
  }
  XbarSpec spec_;
  unsigned sector_bytes_;
  std::vector<BusyUntil> req_in_, req_out_, resp_in_, resp_out_;
};

} // namespace tlmgpu
