// GPUDet as a stage of an SM's memory path (notes seed-001 §4, §10.1
// "GpuDetUnit": its per-SM part). The SM knows nothing of it: platforms with
// gpudet.enable get one in every SM (StageType `gpudet`, implied).
//
//   schedulers ──check──► IssueGate (GpuDetCore: counts, store buffers, grant)
//                           stores: taken into the warp's store buffer
//                           quantum end, atomics, fences, barriers: Wait
//   LD/ST ──► up_ ──────── loads, serial-mode atomics ────────► down_ ──► L1 ──► ... L2
//             ▲ load answers overlaid with the warp's buffered bytes (forwarding)
//             └ commit writes and the opening's L1 invalidation are this stage's
//               own requests (GpuDetControl starts them); their answers stop here
#pragma once

#include "models/gpudet/gpudet_control_module.hpp"
#include "models/gpudet/gpudet_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <deque>
#include <map>
#include <span>
#include <unordered_set>

namespace tlmgpu {

class GpuDetModule : public PathStage, public IssueGate {
public:
  GpuDetModule(sc_core::sc_module_name n, const StageContext& c, const GpuDetSpec& spec,
               uint32_t warp_slots);
  tlm::tlm_target_socket<>& upstream() override { return up_.socket; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_.socket; }
  IssueGate* issue_gate() override { return this; }

  // IssueGate
  bool gates(WarpInstr::Kind k) const override { return core_.gates(k); }
  Verdict check(const GateWarp& w, const WarpInstr& in, bool commit) override;
  uint32_t taken_cycles() const override { return spec_.store_cycles; }
  void kernel_begins(const GateLaunch& l) override {
    core_.kernel_begins(l);
    control_.kernel_begins();
  }
  void warp_started(const GateWarp& w) override { core_.warp_started(w); }
  void warp_exited(const GateWarp& w) override { core_.warp_exited(w); }
  std::string state() const override { return core_.state(); }

  // GpuDetControl's side.
  uint16_t sm() const { return sm_; }
  GpuDetCore& core() { return core_; }
  const GpuDetCore& core() const { return core_; }
  // Sends `writes` (one request per line) and then, if `invalidate`, a
  // device fence that drops the L1's copies; the first request at `start`,
  // one per SM cycle. functional/lt: all now, on the blocking path; returns
  // when the last is answered. at: queued; acked() once every one is answered.
  sc_core::sc_time send(const std::map<Addr, GpuDetLine>& writes, bool invalidate,
                        const sc_core::sc_time& start);
  bool acked() const { return outbox_.empty() && own_.empty(); }
  // Serial mode: `slot`'s atomic has issued, and is answered (lt: at
  // serial_end(), the latest answer of any grant).
  bool serial_issued(uint32_t slot) const { return core_.serial_issued(slot); }
  bool serial_done(uint32_t slot) const {
    return core_.serial_issued(slot) && core_.serial_left(slot) == 0;
  }
  const sc_core::sc_time& serial_end() const { return serial_end_; }

private:
  void b_transport(Payload& t, sc_core::sc_time& d);
  void answered(Payload& t, const sc_core::sc_time& at); // forwarding, serial answers
  // A warp granted, its atomic to go to `lines`: with serial_overlap each
  // line takes the next number of its L2 slice (GpuDetControl's counters).
  void serial_grant(uint32_t slot, std::span<const Addr> lines);
  void on_serial_issue(uint32_t slot); // its atomic just issued
  // A request on its way down: a numbered serial request gets its number.
  void tag(Payload& t);
  void at_take();
  void at_response(Payload& t);
  void at_send();
  GpuPayload* write_payload(Addr line, const GpuDetLine& l);
  GpuPayload* fence_payload();

  SimContext& ctx_;
  const GpuDetSpec& spec_;
  const uint16_t sm_;
  Clock clk_;
  StatGroup stats_;
  GpuDetCore core_;
  GpuDetControl& control_;
  TargetPort up_;
  InitiatorPort down_;
  TimedQueue timer_{"timer"};
  std::deque<GpuPayload*> outbox_;   // at: own requests not yet sent
  std::unordered_set<Payload*> own_; // at: own requests sent, not yet answered
  bool send_pending_ = false;
  // Numbers taken at issue, by (warp slot, line), until the request passes.
  std::map<std::pair<uint32_t, Addr>, std::deque<uint64_t>> numbers_;
  sc_core::sc_time serial_end_;
  Counter& commit_writes_;
};

StageType gpudet_stage_type();

} // namespace tlmgpu
