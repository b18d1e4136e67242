// hLRC's recall channel (models/hlrc/README.md): the crossbar's virtual
// channel for the messages that travel against the request network or beside
// it. A child of the crossbar (gpu.xbar.hlrc_channel), built when the
// platform runs hLRC; every L1 and L2 slice binds a socket pair to it
// through HlrcFabric, so no block calls another.
//
//   L2 slice s ── hlrc_out ══ Recall ══► from_homes ─┐
//                                                    │ recall leg (reply links)
//   L1 of SM o ◄═ hlrc_in ══════════════ to_owners ◄─┘ answered in place, or Deferred
//   L1 of SM o ── hlrc_out ═ Answer/Release ═► from_owners ─┐
//                                                           │ write-back leg (request links)
//   L2 slice s ◄═ hlrc_in ═════════════════════ to_homes ◄──┘
//
// Each leg is booked on the crossbar's links (XbarModule::hlrc_packet) in
// the order messages pass, counted in its own traffic class and in the
// crossbar's totals.
#pragma once

#include "models/hlrc/hlrc_message_module.hpp"
#include "tlmgpu/sim/context.hpp"

#include <systemc>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <map>
#include <vector>

namespace tlmgpu {

class XbarModule;

class HlrcChannel : public sc_core::sc_module {
public:
  HlrcChannel(sc_core::sc_module_name n, SimContext& ctx, XbarModule& xbar);
  tlm_utils::multi_passthrough_target_socket<HlrcChannel> from_homes;   // recalls
  tlm_utils::multi_passthrough_initiator_socket<HlrcChannel> to_owners; // recalls delivered
  tlm_utils::multi_passthrough_target_socket<HlrcChannel> from_owners;  // answers, releases
  tlm_utils::multi_passthrough_initiator_socket<HlrcChannel>
      to_homes; // answers, releases delivered

  // Wiring (HlrcFabric): SM `sm`'s L1 and slice `slice` join; their clock
  // and the L1 latency time the owner's part of a recall.
  void bind_owner(uint16_t sm, tlm::tlm_target_socket<>& in, tlm::tlm_initiator_socket<>& out,
                  const Clock& clock, uint32_t l1_latency);
  void bind_home(uint32_t slice, tlm::tlm_target_socket<>& in, tlm::tlm_initiator_socket<>& out,
                 const Clock& clock);

  // L2 cycle a grant leaving its slice at L2 cycle `leave` reaches the SM,
  // unloaded (an estimate for the registry; the grant itself is a reply).
  Cycle grant_arrival(Cycle leave) const;

private:
  void from_home(int port, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void from_owner(int port, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void recall(tlm::tlm_generic_payload& p, HlrcMessage& m);
  void answer(tlm::tlm_generic_payload& p, HlrcMessage& m);
  void release(tlm::tlm_generic_payload& p, HlrcMessage& m);
  unsigned dirty_sector_bytes(const Writeback& wb) const;
  // Books the owner's write-back leg (or clean ack) offered at `answered`;
  // returns the L2 cycle it reaches the home. Drops a clean `data`.
  Cycle write_back_leg(uint32_t slice, uint16_t owner, std::optional<Writeback>& data,
                       const sc_core::sc_time& answered);
  void deliver_home(tlm::tlm_generic_payload& p, HlrcMessage& m);

  struct Deferred {
    uint32_t slice;
    uint16_t owner;
    Cycle recall_at_owner; // crossbar cycle the recall reached the owner
  };
  std::map<Addr, Deferred> deferred_; // one outstanding deferred recall per line

  SimContext& ctx_;
  XbarModule& xbar_;
  std::vector<int> owner_port_, home_port_; // SM / slice -> initiator socket index
  int owners_ = 0, homes_ = 0;
  Clock sm_clk_, l2_clk_; // from the bound L1s and L2 slices
  uint32_t l1_latency_ = 0;
};

} // namespace tlmgpu
