// Per-SM L1 data cache as a SystemC module: requests from the SM's LD/ST path
// (one per line, with sector mask / byte enables / lanes), misses, forwarded
// stores and atomics, and write-backs to the crossbar. Behaviour lives in
// L1Core; this shell adds MSHRs, the miss queue and the two timing styles.
#pragma once

#include "models/hlrc/hlrc_message_module.hpp"
#include "models/l1/l1_core.hpp"
#include "models/l1/l1_phi_tracker.hpp"
#include "models/l1/l1_rsp_fabric.hpp"
#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/mshr.hpp"
#include "tlmgpu/pending_fill_overlay.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"
#include "tlmgpu/timing.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

class L1Module : public sc_core::sc_module {
public:
  L1Module(sc_core::sc_module_name n, SimContext& ctx, const L1Spec& spec, uint16_t sm,
           double clock_mhz, StatGroup& parent);
  TargetPort port;    // from the SM's LD/ST unit
  InitiatorPort down; // to the crossbar
  const Clock& clock() const { return clk_; }
  uint32_t latency() const { return spec_.latency; } // cycles per access

  // Kernel boundary (release then acquire): write back dirty lines (write-back
  // policy) and drop every line so the next kernel cannot read stale data.
  // Blocking-transport based; the SM/host calls it with no access in flight.
  // hLRC: owned lines are first written back and released (from SM cycle
  // `from`, at least now); returns the SM cycle the last one reaches L2.
  // PHI: update-only lines are sent as Red packets first, likewise. In AT
  // with PHI, call it only once phi_settled() (kernel end, after the run).
  Cycle flush_and_invalidate(Cycle from = 0);
  // PHI, AT (l1_phi_module.cpp): a device/system fence. Update-only lines and
  // dirty bytes go down the normal queue, every line is dropped, and `done`
  // runs once every packet this L1 sent on its own so far has reached L2.
  void release_async(std::function<void()> done);
  // PHI, AT: no partial-update red or write-back of this L1 is on its way.
  bool phi_settled() const { return phi_tracker_.empty(); }
  const sc_core::sc_event& phi_settled_event() const { return phi_settled_; }
  L1Core& core() { return core_; }
  bool idle() const;
  // A stalled head is retried at least this often even if nothing woke it.
  static constexpr Cycle kStallNetCycles = 1024;

private:
  // What a request does here, for both timing styles (l1_serve_module.cpp).
  struct Step {
    enum class Kind {
      Done,    // serviced here: a hit, an absorbed store, a PHI red, an owned atomic
      Fetch,   // fetch `fetch_sectors`, then serve again as a replay
      Forward, // the request itself goes on to L2 (write-through store, atomic, window)
      Bypass,  // a load with no L1 this kernel: goes on, not counted as forwarded
      Own,     // hLRC: a device atomic asks its line's home for ownership
      Remote,  // l1.rsp: a remote atomic, performed at L2 between the other L1s' flush/inval
    } kind = Kind::Done;
    uint32_t fetch_sectors = 0;
    std::optional<Writeback> writeback; // dirty bytes that reach L2 before the request
    std::vector<Writeback> overflow;    // scoped: sFIFO oldest lines, made room for (in order)
    bool phi_partials = false;          // PHI: the core's outbox goes down after `writeback`
    // LT: the request goes on no earlier than this: PHI, the partial values
    // of its update-only line landed at L2 (phi_release).
    Cycle not_before = 0;
  };
  // `replay`: the core counted this request already. `now`: when PHI
  // partials that must precede it leave.
  Step serve(Payload& t, bool replay, Cycle now);
  TargetPort::Hooks target_hooks();
  // LT / functional
  void b_transport(Payload& t, sc_core::sc_time& delay);
  Cycle lt_fetch(Addr line, uint32_t sectors, uint16_t sm, Cycle start);
  Cycle lt_mshr_slot(Addr line, Cycle at);            // LT: wait for a free MSHR entry
  Cycle lt_write_back(const Writeback& wb, Cycle at); // returns when it reached L2
  // AT
  void kick();
  void wake(); // something that may unblock a stalled head happened
  void schedule_step(Cycle at);
  void step();
  void stall_net_fire();
  bool attempt(Payload& t, bool replay);
  void on_down_response(Payload& t);
  void write_back(const Writeback& wb);
  void send_down(Payload& p);
  void drain_down();
  // shared
  void finish(Payload& t, Cycle extra);
  // Fences (l1_fence_module.cpp): a device/system-scope fence request writes
  // back, releases and invalidates as the protocol says, then is answered.
  Cycle lt_fence(const GpuAccess& a, Cycle arrival);
  bool fence_attempt(Payload& t);
  // Scoped (l1_fence_module.cpp): a device/system release drains the sFIFO,
  // an acquire flash-invalidates; returns the cycle the last write-back landed.
  Cycle scoped_fence(const GpuAccess& a, Cycle at);
  // hLRC (l1_hlrc_module.cpp): the ownership request of a Step::Own.
  struct Hlrc;
  void hlrc_init();
  Cycle lt_hlrc_own(Payload& t, Cycle start, Cycle ready);
  bool hlrc_own(Payload& t);
  void hlrc_on_grant(Payload& t);
  Cycle hlrc_release(const Writeback& wb, Cycle at, HlrcRelease why);
  // A Recall from the line's home (the recall channel): an owned line is
  // given up (bytes into `out`); a grant still on its way is deferred
  // (answered on arrival) if `may_defer`, else revoked.
  void hlrc_message_in(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  HlrcAnswer hlrc_recall(Addr line, bool may_defer, Cycle at, std::optional<Writeback>& out);
  // LT: ownership in simulated time (atomics of ours before a recall
  // reached us, performed after it in call order).
  std::optional<Cycle> lt_hlrc_late(Payload& t, Cycle at);
  void lt_hlrc_recalled(Addr line, Cycle at);
  void lt_hlrc_local(Addr line, Cycle at);
  Cycle lt_hlrc_budget(Addr line, Cycle at, Cycle start); // AT's head-of-line stall: until when

  // Remote scope promotion (l1_rsp_module.cpp, l1.rsp = brsp | srsp | srsp_opt): the
  // requester side of a remote atomic around `perform` (which sends it to L2
  // and moves `ready` to its answer), and this L1's answer to another L1's
  // message. sRSP also takes this path for a cta-scope acquire the PA-TBL
  // promotes (srsp_promoted), and leaves a marker for a cta-scope release.
  void rsp_init();
  static bool acquires(MemOrder o) {
    return o == MemOrder::Acquire || o == MemOrder::AcqRel || o == MemOrder::SeqCst;
  }
  static bool releases(MemOrder o) {
    return o == MemOrder::Release || o == MemOrder::AcqRel || o == MemOrder::SeqCst;
  }
  Cycle lt_remote(const GpuAccess& a, Addr line, Cycle ready,
                  const std::function<void(Cycle&)>& perform);
  Cycle srsp_remote(const GpuAccess& a, Addr line, Cycle ready,
                    const std::function<void(Cycle&)>& perform);
  // Sends `m` as `kind` at `at` to every other L1 and counts the messages.
  RspFabric::Result rsp_send(RspMessage m, RspMessage::Kind kind, Cycle at);
  // sRSP's SelFlush for m.sync_line at `at`: a broadcast, or with srsp_opt
  // a unicast to the predicted owner, then the rest if it misfired
  // (l1_srsp_opt_module.cpp).
  RspFabric::Result srsp_selflush(RspMessage m, Cycle at);
  // srsp_opt: a remote access (or a fence half of one) to a line this L1's
  // LR-TBL marks becomes the cta-scope one (the same-CU shortcut).
  void srsp_shortcut(GpuAccess& a, Addr line);
  struct Rsp;
  void srsp_opt_stats(Rsp& r); // before rsp_ is set
  Cycle rsp_respond(const RspMessage& m);
  Cycle srsp_respond(const RspMessage& m);
  bool srsp_promoted(const GpuAccess& a, Addr line) const;
  void srsp_release(const GpuAccess& a, Addr line, Step& s);
  // AT: the fabric's lock at the queue head (bRSP: of every L1; sRSP: of
  // the line), and the remote atomic run on the blocking path once its L1
  // holds the lock and what it waits for is quiet (l1_rsp_module.cpp).
  bool rsp_blocked(const GpuAccess& a, Addr line);
  bool at_remote(Payload& t);
  // sRSP, AT: requests to a line in flight (the fabric's `busy`), and the
  // line locks this L1 holds until its operation's last ack.
  void rsp_sent(Addr line);
  void rsp_landed(Addr line);
  void rsp_unlock_at(Addr line, Cycle at);
  void rsp_accepted(const GpuAccess& a,
                    Addr line); // a head was taken: count it if another L1 held a lock
  // PHI (l1_phi_module.cpp): the core's update-only lines leave as Red packets
  // on the blocking path; no partial update is ever in flight.
  Cycle phi_send(Cycle at, bool blocking = false);
  Cycle phi_release(const GpuAccess& a, Addr line, Cycle at);
  bool phi_landed(Payload& t);                // AT: a tracked packet's answer
  void send_tracked(GpuPayload& p, bool red); // AT: send_down + tracker

  SimContext& ctx_;
  const L1Spec& spec_;
  uint16_t sm_;
  Clock clk_;
  StatGroup stats_;
  L1Core core_;
  MshrTable<Payload*> mshr_;
  IntervalResource pipe_; // time-ordered in LT, busy-until otherwise
  std::deque<Payload*> to_down_;
  PendingFillOverlay overlay_;
  size_t miss_queue_;
  bool step_pending_ = false;
  Cycle next_step_ = 0;
  // The head request the core has already counted (loads, misses, stores):
  // a head refused an MSHR entry is retried each cycle, and those retries
  // must not count as more loads. Reset when the head leaves the queue.
  const Payload* counted_head_ = nullptr;
  size_t in_flight_ = 0; // forwarded + fills + write-backs awaiting a response
  TimedQueue timer_{"timer"};

  // AT stall bookkeeping (l1_module.cpp, "Stalled head"). A stalled head is
  // not retried every cycle; it sleeps until wake() and then adds the counts
  // of the cycles it slept, so the stats are those of a retry every cycle.
  enum class Waker { NextEdge, ThisEdge }; // see wake()
  Waker waker_ = Waker::NextEdge;          // the context running L1 code now
  bool in_step_ = false;
  bool stalled_ = false; // the head failed at stall_cycle_
  bool woken_ = false;   // wake() ran since the head went to sleep
  bool net_step_ = false;
  Cycle stall_cycle_ = 0, pending_at_ = 0;
  Cycle lt_mshr_blocked_until_ = 0; // LT: the end of the latest MSHR-full wait (stall_mshr)
  uint64_t step_gen_ = 0;
  Counter* stall_net_wakeups_ = nullptr;
  std::vector<Counter*> counters_;                   // this L1's counters, core's included
  std::vector<uint64_t> stall_before_, stall_delta_; // what one failed step adds
  sc_core::sc_event stall_net_;

  PhiTracker phi_tracker_;
  sc_core::sc_event phi_settled_;
  Counter* phi_parked_ = nullptr;

  Counter &requests_, &stall_mshr_, &stall_miss_queue_, &forwarded_;
  Average& latency_;
  // l1.rsp != none only (l1_rsp_module.cpp).
  struct Rsp {
    RspFabric* fabric = nullptr;
    bool skip_flush = false, skip_invalidate = false, blind_shortcut = false; // l1.inject_fault
    bool asked = false; // AT: this L1 asked for the lock and holds it or is queued
    bool srsp = false;  // l1.rsp = srsp or srsp_opt
    bool opt = false;   // l1.rsp = srsp_opt: the same-CU shortcut and the owner predictor
    // srsp_opt: line -> the SM whose L1 last acked a SelFlush of it
    // positively, least recently used first (l1.predictor_entries).
    std::vector<std::pair<Addr, uint16_t>> predictor;
    bool line_lock = false;                  // AT with the fabric's Line scope (sRSP)
    std::unordered_map<Addr, uint32_t> busy; // line_lock: requests in flight per line
    std::unordered_map<Addr, uint32_t> held; // line_lock: operations holding the line
    const GpuAccess* parked = nullptr;       // the head parked, queued for its line
    Counter* stall_lock = nullptr;
    Counter *stall_line = nullptr, *stall_flush = nullptr, *parked_reqs = nullptr;
    Counter* under_lock = nullptr;
    Counter *flush_hits = nullptr, *shortcuts = nullptr, *shortcut_fences = nullptr,
            *predictor_hits = nullptr, *predictor_misfires = nullptr;
    Counter *ops = nullptr, *flush_msgs = nullptr, *inv_msgs = nullptr, *flush_acks = nullptr,
            *inv_acks = nullptr, *lines_flushed = nullptr, *cycles = nullptr, *promoted = nullptr;
    Average *l1s_flushed = nullptr, *l1s_invalidated = nullptr;
  };
  std::optional<Rsp> rsp_;
  // l1.atomic_mode = hlrc only; the deleter lives where Hlrc is complete.
  std::unique_ptr<Hlrc, void (*)(Hlrc*)> hlrc_{nullptr, nullptr};
};

} // namespace tlmgpu
