// One L2 slice as a SystemC module: requests from the crossbar, misses and
// write-backs to its DRAM channel. Behaviour lives in L2Core; this shell adds
// the pipeline (one request per cycle), MSHRs and the two timing styles.
#pragma once

#include "models/hlrc/hlrc_channel_module.hpp"
#include "models/hlrc/ownership_registry.hpp"
#include "models/l2/l2_core.hpp"
#include "tlmgpu/capacity_booking.hpp"
#include "tlmgpu/in_flight_writes.hpp"
#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/mshr.hpp"
#include "tlmgpu/pending_fill_overlay.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"
#include "tlmgpu/timing.hpp"
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <map>
#include <optional>

namespace tlmgpu {

class L2Module : public sc_core::sc_module {
public:
  L2Module(sc_core::sc_module_name n, SimContext& ctx, const L2Spec& spec, uint32_t slice,
           StatGroup& parent);
  TargetPort port;   // from the crossbar
  InitiatorPort mem; // to the DRAM channel
  const Clock& clock() const { return clk_; }

  L2Core& core() { return core_; }
  // Untimed access for the host and checkers: cached bytes over DRAM bytes.
  unsigned debug(Payload& t);

  const OwnershipRegistry& registry() const { return registry_; }

private:
  // hLRC (l2_hlrc_module.cpp; models/hlrc/README.md), messages from the
  // recall channel: a Release (SM `sm` gives up `wb.line`: eviction, kernel
  // end, fence; its bytes are applied now and the line is free at the slice
  // from L2 cycle `back`) or, AT, the Answer to a deferred recall (the bytes,
  // none if clean, here from L2 cycle `back`; the parked requests resume).
  void hlrc_message_in(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void hlrc_release(uint16_t sm, const Writeback& wb, Cycle back);
  void hlrc_recall_done(Addr line, std::optional<Writeback> wb, Cycle back);
  void hlrc_apply(tlm::tlm_generic_payload& p, HlrcMessage& m);
  TargetPort::Hooks target_hooks(); // only builds lambdas: safe during construction
  // LT / functional
  void b_transport(Payload& t, sc_core::sc_time& delay);
  Cycle lt_fill(Addr line, uint32_t sectors, Cycle start);
  Cycle lt_mshr_slot(Cycle at); // LT: the first cycle >= at with a free MSHR entry
  void lt_write_back(const Writeback& wb, Cycle at);
  // AT
  void kick();
  void step();
  bool attempt(Payload& t, Cycle arrival, bool resumed); // false: stalled, leave it queued
  void on_mem_response(Payload& t);
  struct AtServed {
    bool answered;          // a hit: the response is on its way
    uint32_t fetch_sectors; // a miss: what to fetch from DRAM
    Cycle latency;          // a hit: cycles until the response leaves
  };
  AtServed at_serve(Payload& t, Cycle now, Cycle hold, bool replay, Cycle arrival);
  void write_back(const Writeback& wb);
  void send_to_mem(GpuPayload* p);
  void drain_to_mem();
  // shared
  // The core access, or with hLRC an atomic's ownership grant. `hold` = the
  // cycles the request waits for the line's previous owner (response delay);
  // `arrival` = when it reached the slice (for the ownership wait stat).
  L2Outcome serve(GpuAccess& a, Addr line, Payload& t, Cycle now, Cycle hold, bool replay,
                  Cycle arrival);
  // hLRC, AT request path: false = `t` was parked behind a deferred recall of
  // its line (it resumes in order when the owner answers); true = go on,
  // after `hold` cycles (a pending transfer, a recall round trip).
  bool hlrc_gate(Payload& t, Addr line, Cycle now, Cycle arrival, Cycle& hold);
  // hLRC, blocking path (LT, functional, AT flushes): the cycles to wait.
  Cycle hlrc_blocking_resolve(const GpuAccess& a, Addr line, Cycle now);
  // Waits for a pending transfer and recalls the line's owner (its bytes land
  // in the array now). Returns the L2 cycle the request may be served from,
  // or nothing if the recall was deferred (`may_defer`, AT only).
  std::optional<Cycle> hlrc_resolve(const GpuAccess& a, Addr line, Cycle now, bool may_defer);
  void hlrc_init();
  void hlrc_absorb(const Writeback& wb, Cycle at);

  SimContext& ctx_;
  const L2Spec& spec_;
  uint32_t slice_;
  Clock clk_;
  StatGroup stats_;
  L2Core core_;
  MshrTable<Payload*> mshr_;
  IntervalResource pipe_; // time-ordered in LT, busy-until otherwise
  // LT: the MSHR capacity, each fill holding an entry over [issue, ready) in
  // time (mshr_ only keeps the lines' ready cycles, in call order), and the
  // cycles misses waited for one (stall_mshr_full, counted once when waits overlap).
  CapacityBooking lt_mshr_;
  CoveredCycles lt_mshr_waits_;
  std::deque<GpuPayload*> to_mem_;
  PendingFillOverlay overlay_;
  InFlightWrites in_flight_; // AT: write-backs not yet at DRAM (blocking fills see them)
  bool step_pending_ = false;
  Cycle next_step_ = 0;
  TimedQueue timer_{"timer"};

  Counter &requests_, &stall_mshr_full_, &stall_merge_full_, &mshr_merges_, &wb_sent_;
  Average& latency_;
  // hLRC only (l1.atomic_mode = hlrc), else null.
  bool hlrc_ = false;
  // The recall channel (HlrcChannel): recalls out; answers and releases in.
  std::unique_ptr<tlm_utils::simple_initiator_socket<L2Module>> hlrc_out_;
  std::unique_ptr<tlm_utils::simple_target_socket<L2Module>> hlrc_in_;
  const HlrcChannel* hlrc_channel_ = nullptr; // for its grant latency estimate, at first use
  OwnershipRegistry registry_;
  uint64_t hlrc_prune_tick_ = 0;
  struct Parked {
    Payload* t;
    Cycle arrival;
  };
  std::map<Addr, std::deque<Parked>> parked_; // AT: behind a deferred recall, in order
  std::deque<Parked> resume_q_;               // AT: released by the answer, served first
  Counter *hlrc_grants_ = nullptr, *hlrc_recalls_ = nullptr, *hlrc_releases_ = nullptr,
          *hlrc_parked_ = nullptr;
  Average* hlrc_wait_ = nullptr;
};

} // namespace tlmgpu
