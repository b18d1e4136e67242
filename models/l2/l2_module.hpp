// One L2 slice as a SystemC module: requests from the crossbar, misses and
// write-backs to its DRAM channel. Behaviour lives in L2Core; this shell adds
// the pipeline (one request per cycle), MSHRs and the two timing styles.
#pragma once

#include "models/l2/l2_core.hpp"
#include "tlmgpu/mshr.hpp"
#include "tlmgpu/pending_fill_overlay.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"
#include "tlmgpu/timing.hpp"

#include <deque>

namespace tlmgpu {

class L2Module : public sc_core::sc_module {
public:
  L2Module(sc_core::sc_module_name n, SimContext& ctx, uint32_t slice, StatGroup& parent);
  TargetPort port;   // from the crossbar
  InitiatorPort mem; // to the DRAM channel

  L2Core& core() { return core_; }
  // Untimed access for the host and checkers: cached bytes over DRAM bytes.
  unsigned debug(Payload& t);

private:
  TargetPort::Hooks target_hooks(); // only builds lambdas: safe during construction
  // LT / functional
  void b_transport(Payload& t, sc_core::sc_time& delay);
  Cycle lt_fill(Addr line, uint32_t sectors, Cycle start);
  void lt_write_back(const Writeback& wb, Cycle at);
  // AT
  void kick();
  void step();
  bool attempt(Payload& t); // false: stalled, leave it in the queue
  void on_mem_response(Payload& t);
  void write_back(const Writeback& wb);
  void send_to_mem(GpuPayload* p);
  void drain_to_mem();
  // shared

  SimContext& ctx_;
  const L2Spec& spec_;
  Clock clk_;
  StatGroup stats_;
  L2Core core_;
  MshrTable<Payload*> mshr_;
  BusyUntil pipe_;
  std::deque<GpuPayload*> to_mem_;
  PendingFillOverlay overlay_;
  bool step_pending_ = false;
  Cycle next_step_ = 0;
  TimedQueue timer_{"timer"};

  Counter &requests_, &stall_mshr_full_, &stall_merge_full_, &mshr_merges_, &wb_sent_;
  Average& latency_;
};

} // namespace tlmgpu
