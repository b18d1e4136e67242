// DAB's atomic buffers as a stage of an SM's memory path (paper §IV; notes
// seed-001 §3, §10.1). The SM knows nothing of it: platforms with dab.level
// warp or scheduler get one in every SM (StageType `dab`, implied).
//
//   schedulers ──check──► IssueGate (DabGateCore: buffers, rings, tokens, batches)
//                           reds: taken into a buffer like an ALU op (P21)
//                           atomics, device fences: wait for the buffer's flush
//   LD/ST ──► up_ ───────────────────────────────► down_ ──► L1 ──► ... ──► L2
//                       flush packets (epoch e) ──┘  (DabFlushControl starts the
//                                                     epoch; a reorder unit in
//                                                     front of each L2 slice
//                                                     restores the order)
//
// Everything else passes through unchanged in every timing mode: the red
// requests of a DAB kernel never reach this stage, because the gate took
// their instructions at issue.
//
// dab.keying = group (beyond the paper, issue 14 item 8): the stage holds one
// DabGateCore per CTA group it hosts (groups g with g mod sm.count == this
// SM, sm.cta_groups in all), each a "virtual SM" of dab.group_buffers
// buffers and batches of dab.group_ctas CTAs, numbered and reordered as
// source g. What each group buffers, when it is READY and where its packets
// fall in a flush then follow from the program alone, whatever sm.count is.
#pragma once

#include "models/atomic_buffer/dab_flush_module.hpp"
#include "models/atomic_buffer/dab_gate_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <deque>
#include <map>
#include <vector>

namespace tlmgpu {

class DabModule : public PathStage, public IssueGate {
public:
  // `schedulers` and `warp_slots` of the SM size its buffers; `sms` and
  // `groups` (sm.count, sm.cta_groups) place the CTA groups (keying group).
  DabModule(sc_core::sc_module_name n, const StageContext& c, const AtomicBufferSpec& spec,
            uint32_t schedulers, uint32_t warp_slots, uint32_t sms, uint32_t groups);
  tlm::tlm_target_socket<>& upstream() override { return up_.socket; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_.socket; }
  IssueGate* issue_gate() override { return this; }

  // IssueGate
  bool gates(WarpInstr::Kind k) const override { return cores_[0]->gates(k); }
  Verdict check(const GateWarp& w, const WarpInstr& in, bool commit) override;
  uint32_t taken_cycles() const override { return spec_.insert_cycles; }
  void kernel_begins(const GateLaunch& l) override;
  void warp_started(const GateWarp& w) override { core_of(w).warp_started(w); }
  void warp_exited(const GateWarp& w) override { core_of(w).warp_exited(w); }
  std::string state() const override;

  // The flush protocol (DabFlushControl).
  uint16_t sm() const { return sm_; }
  bool ready() const;   // every buffer READY
  bool empty() const;   // nothing buffered
  bool settled() const; // nothing buffered, every flush of this SM applied
  // Empties the buffers into packets of `epoch`, numbered per source and L2
  // slice; adds how many go to each slice to counts[source] (pre-flush counts).
  void drain(uint64_t epoch, std::vector<std::vector<uint32_t>>& counts);
  // Sends the drained packets, the first at `start` (one per SM cycle).
  // functional/lt: all now, on the blocking path; returns when the last
  // leaves and when the last is applied (delays from now). at: queued;
  // injected() once the last left, acked(e) once every one of e is answered.
  struct Injection {
    sc_core::sc_time out, applied;
  };
  Injection inject(const sc_core::sc_time& start);
  bool injected() const { return outbox_.empty(); }
  void injection_done() { set_injecting(false); } // lt: the control's time reached Injection::out
  bool acked(uint64_t epoch) const {
    return (outbox_.empty() || outbox_.front().epoch != epoch) && !in_flight_.contains(epoch);
  }
  void applied(uint64_t epoch) {
    for (auto& c : cores_)
      c->applied(epoch);
  }

private:
  void b_transport(Payload& t, sc_core::sc_time& d) { down_.b_transport(t, d); }
  void at_take();
  void at_response(Payload& t);
  void at_inject();
  std::vector<uint32_t> sources() const;
  std::vector<std::unique_ptr<DabGateCore>> make_cores(uint32_t schedulers, uint32_t warp_slots);
  void set_injecting(bool on) {
    for (auto& c : cores_)
      c->set_injecting(on);
  }
  DabGateCore& core_of(const GateWarp& w) { return *cores_[grouped_ ? w.cta % groups_ / sms_ : 0]; }

  SimContext& ctx_;
  const AtomicBufferSpec& spec_;
  const uint16_t sm_;
  Clock clk_;
  StatGroup stats_;
  const bool grouped_;
  const uint32_t sms_, groups_;
  // The sources this SM flushes as: itself, or the CTA groups it hosts;
  // cores_[i] is source i's (an SM hosting no group keeps one idle core).
  std::vector<uint32_t> sources_;
  std::vector<std::unique_ptr<DabGateCore>> cores_;
  DabFlushControl& control_;
  TargetPort up_;
  InitiatorPort down_;
  TimedQueue timer_{"timer"};
  std::vector<FlushPacket> outbox_; // drained, not yet sent
  size_t next_out_ = 0;
  std::map<uint64_t, uint32_t> in_flight_; // at: per epoch, packets L2 has not answered
  bool inject_pending_ = false;
  Counter &packets_, &flushes_;
};

StageType dab_stage_type();

} // namespace tlmgpu
