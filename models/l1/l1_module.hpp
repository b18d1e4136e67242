// Per-SM L1 data cache as a SystemC module: requests from the SM's LD/ST path
// (one per line, with sector mask / byte enables / lanes), misses, forwarded
// stores and atomics, and write-backs to the crossbar. Behaviour lives in
// L1Core; this shell adds MSHRs, the miss queue and the two timing styles.
#pragma once

#include "models/l1/l1_core.hpp"
#include "tlmgpu/mshr.hpp"
#include "tlmgpu/pending_fill_overlay.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"
#include "tlmgpu/timing.hpp"

#include <deque>

namespace tlmgpu {

class L1Module : public sc_core::sc_module {
public:
  L1Module(sc_core::sc_module_name n, SimContext& ctx, const L1Spec& spec, uint16_t sm,
           double clock_mhz, StatGroup& parent);
  TargetPort port;    // from the SM's LD/ST unit
  InitiatorPort down; // to the crossbar

  // Kernel boundary (release then acquire): write back dirty lines (write-back
  // policy) and drop every line so the next kernel cannot read stale data.
  // Blocking-transport based; the SM/host calls it with no access in flight.
  void flush_and_invalidate();
  L1Core& core() { return core_; }
  bool idle() const;

private:
  TargetPort::Hooks target_hooks();
  // LT / functional
  void b_transport(Payload& t, sc_core::sc_time& delay);
  Cycle lt_fetch(Addr line, uint32_t sectors, uint16_t sm, Cycle start);
  void lt_write_back(const Writeback& wb, Cycle at);
  // AT
  void kick();
  void step();
  bool attempt(Payload& t, bool replay);
  void on_down_response(Payload& t);
  void write_back(const Writeback& wb);
  void send_down(Payload& p);
  void drain_down();
  // shared
  void finish(Payload& t, Cycle extra);

  SimContext& ctx_;
  const L1Spec& spec_;
  uint16_t sm_;
  Clock clk_;
  StatGroup stats_;
  L1Core core_;
  MshrTable<Payload*> mshr_;
  BusyUntil pipe_;
  std::deque<Payload*> to_down_;
  PendingFillOverlay overlay_;
  size_t miss_queue_;
  bool step_pending_ = false;
  Cycle next_step_ = 0;
  size_t in_flight_ = 0; // forwarded + fills + write-backs awaiting a response
  TimedQueue timer_{"timer"};

  Counter &requests_, &stall_mshr_, &stall_miss_queue_, &forwarded_;
  Average& latency_;
};

} // namespace tlmgpu
