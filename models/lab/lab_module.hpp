// The LAB as a stage of an SM's memory path (issue 11; seed-000 §1.5-1.7):
// a target socket facing the SM's LD/ST unit, an initiator socket towards
// the L1, in functional, lt and at. The SM knows nothing of it: platforms
// with lab.entries > 0 (or lab.infinite) get one in every SM (StageType
// `lab`, implied), and `sm.stages` may place it explicitly.
//
//   LD/ST ──► up_ ──┬─ eligible atomic/red ──► LabCore (answered after lab.latency)
//                   │                             │ evictions, forwards, flushes
//                   │                             ▼
//                   │                          inject_ (lab.inject_queue, at)
//                   │                             │ one packet per cycle, when
//                   │                             ▼ down_ has nothing waiting
//                   └─ anything else ─────────► down_ ──► L1 ──► ... ──► L2
//
// Ordering points (Fence requests): a device/system fence, the kernel end's
// release, and (lab.flush_on_barrier) a CTA barrier flush the LAB, and the
// request goes on towards the L1 only once L2 acknowledged every packet
// queued before it; its answer comes back up the same way. The answer thus
// means "every partial update this SM buffered is in L2".
//
// paper_compatible: the GPU-wide golden memory (golden_memory.hpp) answers
// buffered atomics and loads of the words they touched; it is shared by the
// SM's LAB stages through SimContext::shared and cleared once every LAB has
// drained at the kernel end. ANBF (lab.variant = no_flush_cost): the kernel
// end's flush is free; in at it waits until every LAB holds its kernel-end
// release and has nothing in flight, then all flush at once on the blocking
// path (the only moment that path is safe beside at traffic).
#pragma once

#include "models/lab/golden_memory.hpp"
#include "models/lab/lab_core.hpp"
#include "models/lab/lab_injection.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

class LabModule;

// What the LAB stages of one GPU share (SimContext::shared "lab").
struct LabGpuState {
  std::unique_ptr<GoldenMemory> golden; // paper_compatible only
  std::vector<LabModule*> stages;
  uint32_t kernel_end_arrived = 0, kernel_end_drained = 0; // this kernel
  std::vector<LabModule*> anbf_held;                       // at: ANBF releases waiting
  // A LAB drained at the kernel end; the last one lets the golden memory
  // forget (no partial value is buffered anywhere now).
  void drained();
  void try_release_anbf(); // at: every LAB holds its release and is settled
};

class LabModule : public PathStage {
public:
  LabModule(sc_core::sc_module_name n, const StageContext& c, const LabSpec& spec);
  tlm::tlm_target_socket<>& upstream() override { return up_.socket; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_.socket; }
  bool orders_barriers() const override { return spec_.flush_on_barrier; }
  SramClaim sram_claim() const override { return lab_sram_claim(spec_); }
  const LabCore& core() const { return core_; }

private:
  friend struct LabGpuState;
  using Tracked = GoldenMemory::TrackedBytes;

  // Device windows are registers, not memory: their atomics pass by.
  bool absorbs(const Payload& t, const GpuAccess& a) const {
    return a.is_rmw() && core_.eligible(a) && ctx_.address_map.device_of(t.get_address()) < 0;
  }
  bool drains(const GpuAccess& fence) const;
  GpuPayload* packet(const LabEviction& ev);
  void golden_rmw(GpuAccess& a, Addr line);
  void golden_store(Payload& t);
  bool golden_load(Payload& t, Tracked& out); // false: nothing tracked in its bytes
  void overlay(Payload& t, const Tracked& bytes);
  void kernel_end_arrives(); // flushes_before_kernel_end, arrival count

  // functional and lt (lab_module.cpp): everything on the blocking path.
  void b_transport(Payload& t, sc_core::sc_time& d);
  sc_core::sc_time lt_send(const LabEviction& ev, const sc_core::sc_time& d);
  void lt_fence(Payload& t, sc_core::sc_time& d);

  // at (lab_at_module.cpp).
  void at_take(); // up_ has requests: take them all
  void at_accept(Payload& t);
  void at_fence(Payload& t);
  void at_kick();
  void at_tick();
  void at_response(Payload& t);
  void at_progress();
  void anbf_release(); // LabGpuState::try_release_anbf
  bool settled() const { return inject_.settled(); }

  SimContext& ctx_;
  const LabSpec& spec_;
  const uint16_t sm_;
  Clock clk_;
  StatGroup stats_;
  LabCore core_;
  LabGpuState& gpu_;
  TargetPort up_;
  InitiatorPort down_;
  Counter &packets_, &early_flushes_;
  Counter* golden_returns_ = nullptr; // paper_compatible only
  Counter* golden_loads_ = nullptr;   // paper_compatible only
  const bool fence_early_; // lab.inject_fault = fence_before_drain (a mutation for tests)

  void trace_flush(const sc_core::sc_time& start, const sc_core::sc_time& end);
  uint32_t trace_track_ = 0;

  // lt state: when the latest packet sent so far reaches L2 (absolute); an
  // ordering point waits for it, as AT's drain waits for every packet's reply.
  sc_core::sc_time lt_packets_landed_ = sc_core::SC_ZERO_TIME;

  // at state
  struct Wait { // a drain: goes on when every packet numbered below `mark` is acked
    Payload* fence;
    uint64_t mark;
    Cycle start;
    bool flushed;    // the flush sent packets (flush_cycles counts it)
    bool kernel_end; // LabGpuState::drained() once done
  };
  LabInjection<GpuPayload> inject_;
  std::deque<Payload*> requests_; // eligible requests waiting for the LAB pipeline
  std::deque<Wait> waits_;        // in mark order
  std::unordered_map<Payload*, Tracked> golden_loads_pending_;
  Payload* anbf_fence_ = nullptr;
  TimedQueue timer_{"timer"};
  Cycle next_tick_ = 0;
  bool tick_pending_ = false;
  Counter *icnt_fail_ = nullptr, *flushes_ = nullptr, *flush_packets_ = nullptr,
          *flush_cycles_ = nullptr; // at only, so functional and lt keep their stats.json
};

StageType lab_stage_type();

} // namespace tlmgpu
