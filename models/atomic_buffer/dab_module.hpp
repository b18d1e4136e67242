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
#pragma once

#include "models/atomic_buffer/dab_flush_module.hpp"
#include "models/atomic_buffer/dab_gate_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <deque>
#include <vector>

namespace tlmgpu {

class DabModule : public PathStage, public IssueGate {
public:
  // `schedulers` and `warp_slots` of the SM size its buffers.
  DabModule(sc_core::sc_module_name n, const StageContext& c, const AtomicBufferSpec& spec,
            uint32_t schedulers, uint32_t warp_slots);
  tlm::tlm_target_socket<>& upstream() override { return up_.socket; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_.socket; }
  IssueGate* issue_gate() override { return this; }

  // IssueGate
  bool gates(WarpInstr::Kind k) const override { return core_.gates(k); }
  Verdict check(const GateWarp& w, const WarpInstr& in, bool commit) override;
  uint32_t taken_cycles() const override { return spec_.insert_cycles; }
  void kernel_begins(const GateLaunch& l) override { core_.kernel_begins(l); }
  void warp_started(const GateWarp& w) override { core_.warp_started(w); }
  void warp_exited(const GateWarp& w) override { core_.warp_exited(w); }
  std::string state() const override { return core_.state(); }

  // The flush protocol (DabFlushControl).
  uint16_t sm() const { return sm_; }
  const DabGateCore& core() const { return core_; }
  // Empties the buffers into packets of `epoch`, numbered per L2 slice;
  // returns how many go to each slice (the pre-flush counts).
  std::vector<uint32_t> drain(uint64_t epoch);
  // Sends the drained packets, the first at `start` (one per SM cycle).
  // functional/lt: all now, on the blocking path; returns when the last is
  // applied. at: queued; acked() once every one is answered.
  sc_core::sc_time inject(const sc_core::sc_time& start);
  bool acked() const { return outbox_.empty() && in_flight_ == 0; }
  void applied(uint64_t epoch) { core_.applied(epoch); }

private:
  void b_transport(Payload& t, sc_core::sc_time& d) { down_.b_transport(t, d); }
  void at_take();
  void at_response(Payload& t);
  void at_inject();

  SimContext& ctx_;
  const AtomicBufferSpec& spec_;
  const uint16_t sm_;
  Clock clk_;
  StatGroup stats_;
  DabGateCore core_;
  DabFlushControl& control_;
  TargetPort up_;
  InitiatorPort down_;
  TimedQueue timer_{"timer"};
  std::vector<FlushPacket> outbox_; // drained, not yet sent
  size_t next_out_ = 0;
  uint32_t in_flight_ = 0;
  bool inject_pending_ = false;
  Counter &packets_, &flushes_;
};

StageType dab_stage_type();

} // namespace tlmgpu
