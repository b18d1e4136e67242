// Streaming multiprocessor: warp slots running kernel coroutines, one issue
// per scheduler per cycle (pluggable policy), a coalescer turning global
// memory instructions into line requests for the L1 (the LD/ST path), shared
// memory, barriers and fences. See models/sm/README.md.
//
//   warps (coroutines) --issue--> [schedulers x N] --> ALU | shared memory
//                                                  \--> coalescer --> lsu --> l1 ==> xbar
#pragma once

#include "models/l1/l1_module.hpp"
#include "models/shared_mem/shared_mem_core.hpp"
#include "models/sm/coalescer.hpp"
#include "models/sm/scheduler.hpp"
#include "models/sm/warp_masks.hpp"
#include "tlmgpu/device_memory.hpp"
#include "tlmgpu/sim/kernel.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "tlmgpu/simt/instr_probe.hpp"

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace tlmgpu {

constexpr bool is_global_memory(WarpInstr::Kind k) {
  return k == WarpInstr::Kind::Load || k == WarpInstr::Kind::Store ||
         k == WarpInstr::Kind::Atomic || k == WarpInstr::Kind::Red;
}

class SmModule : public sc_core::sc_module {
public:
  // What the builder hands an SM: the specs of the SM and of the L1 and
  // shared memory it contains, and its memory path's stage types, nearest the
  // LD/ST unit first (resolved from the topology's "stages" or sm.stages).
  struct Parts {
    const SmSpec& sm;
    const L1Spec& l1;
    const SharedMemSpec& shared_mem;
    std::vector<const StageType*> stages;
  };
  SmModule(sc_core::sc_module_name n, SimContext& ctx, uint16_t id, StatGroup& parent,
           const Parts& parts);
  const uint16_t id;

private:
  StatGroup stats_; // declared before l1: its group nests under this one

public:
  L1Module l1;
  // A test initiator may drive the memory path (the first stage, else the
  // L1) directly when no kernel runs.
  tlm::tlm_target_socket<>& lsu() {
    external_lsu_ = true;
    return path_entry();
  }

  // Kernel interface (GpuModule's CTA dispatcher).
  // ctas_per_sm (occupancy) and sms describe the launch to an issue gate.
  void begin_kernel(const KernelLaunch& k, const DeviceMemory& mem, uint32_t ctas_per_sm = 0,
                    uint32_t sms = 1);
  void start_cta(uint32_t cta_linear); // caller checked occupancy
  // A CTA retired on SM `sm` at SM cycle `at` (in lt the SM's local time,
  // which may run up to a quantum ahead of the kernel's).
  std::function<void(uint16_t sm, Cycle at)> on_cta_done;
  // Observers (tlmgpu/simt/instr_probe.hpp), attached after elaboration, not
  // owned: of every issued instruction (the trace writer) and of the global
  // memory instructions the LD/ST unit takes (the atomic profile).
  std::vector<InstrProbe*> issue_probes, memory_probes;
  bool busy() const { return live_ctas_ > 0; }
  // Warp instructions issued so far (the deadlock watchdog's progress).
  uint64_t issued() const { return warp_instructions_.value(); }
  // What this SM's warps wait for, one line (deadlock reports): CTAs, warps
  // at a barrier, waiting for memory, held by the issue gate (and its state).
  std::string waits() const;
  // This SM's kernel end: it runs no CTA and none will come (every CTA is
  // placed), so a system-scope release goes down its memory path now, at SM
  // cycle `at`, while other SMs may still run (GPGPU-Sim flushes a cluster's
  // L1 once it has no CTA: a per-SM kernel end, seed-000 notes §1.7 [C]).
  // Every stage drains what it buffers and the L1 writes back, releases and
  // invalidates. Once per kernel (later calls do nothing). functional/lt:
  // returns the SM cycle it was answered; at: returns `at`, and
  // kernel_end_pending() holds until the answer (kernel_end_event()).
  Cycle kernel_end_release(Cycle at);
  Cycle kernel_end_release() { return kernel_end_release(clk_.now()); }
  bool kernel_end_pending() const { return kernel_end_pending_; }
  const sc_core::sc_event& kernel_end_event() const { return kernel_end_done_; }
  // SRAM the path's stages take from the L1 (GpuModule re-splits per launch).
  SramClaim sram_claim() const;
  // The path's stages, nearest the LD/ST unit first (tests, tools).
  const std::vector<std::unique_ptr<PathStage>>& stages() const { return stages_; }
  // "" when nothing on this SM's memory path answers an access differently
  // from the memory image in functional mode (no stages; atomics bypass the
  // L1); else why not, naming the key.
  std::string plain_path() const;
  // Functional mode: perform global accesses lane by lane on `memory`
  // instead of sending them down the path (sim.functional_memory,
  // sm_direct_module.cpp). Call during elaboration.
  void use_direct_memory(BackingStore& memory);

private:
  struct WarpSlot {
    bool valid = false;
    std::unique_ptr<Warp> warp;
    WarpTask task;
    uint32_t cta_slot = 0;
    uint64_t age = 0;
    Cycle ready_at = 0;       // earliest cycle its next instruction may issue
    uint32_t outstanding = 0; // AT: line requests in flight the warp waits for
    // Non-blocking writes (stores and reds the warp does not wait for, see
    // sm.blocking_writes): AT counts the requests not yet acknowledged (by
    // L2, or by a stage that answers them itself); lt keeps the cycle the last one
    // is acknowledged (and, once the warp exited, its last access's answer).
    // Fences and the warp's exit wait for them.
    uint32_t writes = 0;
    Cycle writes_done = 0;
    bool exited = false; // the coroutine finished; the slot frees once its writes are acked
    enum class AfterWrites : uint8_t { None, Fence, Barrier } after_writes = AfterWrites::None;
    // An access with release/acquire order is fence + access + fence
    // (sm_ordering_module.cpp): where the warp is in that sequence.
    enum class Ordered : uint8_t {
      None,
      Release,
      Access,
      Acquire,
      Acquiring
    } ordered = Ordered::None;
    bool at_barrier = false;
  };
  // AT request: whose it is and how to scatter its data; kept in the
  // payload's initiator state while it is out (send_in_flight).
  struct InFlight {
    uint32_t slot;
    uint64_t lane_mask;
    uint8_t size;
    bool write;           // non-blocking: the warp went on, the reply is an acknowledgement
    bool barrier = false; // a barrier request: the warp arrives at the answer
    bool fence = false;   // a fence request (no data to scatter)
    uint8_t live = 0;     // kLive while out: a reply to anything else is a model bug
  };
  static constexpr uint8_t kLive = 0xA5;
  static void mark_in_flight(GpuPayload& p, InFlight f) {
    f.live = kLive;
    p.set_initiator_state(f);
  }
  struct CtaSlot {
    bool valid = false;
    // live: warps still running code (barriers count them); resident: warps
    // holding a slot (exited ones wait for their writes' acknowledgements).
    uint32_t cta = 0, live_warps = 0, resident_warps = 0, at_barrier = 0, smem_base = 0;
  };

  void before_end_of_elaboration() override;
  tlm::tlm_target_socket<>& path_entry(); // where LD/ST requests enter the path
  void run();
  bool issue_cycle(Cycle now);
  void issue(uint32_t slot, Cycle now);
  void issue_global(uint32_t slot, const WarpInstr& in, Cycle now);
  void issue_shared(uint32_t slot, const WarpInstr& in, Cycle now);
  void arrive_barrier(uint32_t slot, Cycle now);
  void advance(uint32_t slot); // resume the coroutine after its instruction completed
  void resume(uint32_t slot);  // advance() without refreshing the masks
  // Sets masks_ from warps_[slot]; called after every change of a slot's
  // valid, exited, at_barrier, outstanding or pending instruction.
  void refresh(uint32_t slot);
  // issue_cycle() and idle() read masks_ instead of scanning every slot, in
  // every mode (lt and functional since 2026-11-29: the scan was 13.6 % of
  // BC in lt); an issue gate is asked about each warp, so it keeps the scan.
  bool scan_by_masks() const { return !gate_; }
  void check_masks() const; // TLMGPU_CHECK_WARP_MASKS builds: masks_ against the slots
  static std::array<bool, WarpMasks::kSets> mask_bits(const WarpSlot& w);
  void retire_warp(uint32_t slot); // its coroutine finished
  void free_warp(uint32_t slot);   // ... and its writes are acknowledged
  // Non-blocking writes (sm_ordering_module.cpp).
  bool waits_for(WarpInstr::Kind k) const; // does the warp wait for this instruction's replies?
  bool writes_pending(const WarpSlot& w) const;
  bool lsu_open() const;              // AT: may a global memory instruction issue now?
  Cycle take_write_slot(Cycle leave); // lt: when a write request may leave the LD/ST unit
  void note_write(WarpSlot& w, uint32_t n);
  void note_write_lt(WarpSlot& w, Cycle acked);
  void writes_acked(uint32_t slot, uint32_t n);
  void retire_exited(Cycle now); // lt: exited warps whose writes are acknowledged by now
  bool wait_for_writes(uint32_t slot, WarpSlot::AfterWrites then);
  void fence(uint32_t slot, Cycle now);
  void ordering_point(uint32_t slot,
                      Cycle now); // a fence instruction, or half of an ordered access
  bool releases(const WarpInstr& in) const;
  bool acquires(const WarpInstr& in) const;
  bool ordered_step(uint32_t slot,
                    Cycle now);   // issue(): a release/acquire half instead of the access
  bool ordered_done(WarpSlot& w); // advance(): false while the sequence goes on
  GpuPayload* fence_payload(Scope scope, FenceKind kind, uint32_t slot, // slot kNoWarp: kernel end
                            MemOrder order = MemOrder::SeqCst);
  void barrier(uint32_t slot, Cycle now);
  void send_ordering(uint32_t slot, Cycle now, FenceKind kind); // a fence or barrier request
  Cycle cur_cycle() const; // the SM's own cycle (lt: its local time)
  void on_lsu_response(Payload& t);
  void check_bounds(uint32_t slot, const WarpInstr& in) const;
  bool issue_direct(uint32_t slot, const WarpInstr& in); // false: take the path
  struct Idle {
    Counter* stall; // why no warp issued
    Cycle next;     // the next cycle one may (~0: only an event can wake the SM)
  };
  Idle idle(Cycle now);
  [[noreturn]] void fail(uint32_t slot, const std::string& what) const;
  void enter_barrier(uint32_t slot, Cycle now);
  // The issue gate of the path, if a stage has one (sm_gate_module.cpp).
  void attach_gate();
  GateWarp gate_warp(uint32_t slot) const;
  bool gated(const WarpSlot& w, const WarpInstr& in) const;       // does the gate decide `in` now?
  void take_gated(uint32_t slot, const WarpInstr& in, Cycle now); // the gate performed it

  SimContext& ctx_;
  const SmSpec& spec_;
  Clock clk_;
  Coalescer coalescer_;
  SharedMemCore smem_;
  std::vector<std::unique_ptr<SchedulerPolicy>> schedulers_;
  std::vector<Cycle> sched_busy_until_;
  std::vector<WarpSlot> warps_;
  WarpMasks masks_;
  std::vector<CtaSlot> ctas_;
  std::vector<WarpView> views_;
  const KernelLaunch* kernel_ = nullptr;
  const DeviceMemory* mem_ = nullptr;
  uint32_t live_ctas_ = 0;
  uint64_t next_age_ = 0;
  bool external_lsu_ = false;
  InitiatorPort lsu_port_;
  std::vector<std::unique_ptr<PathStage>> stages_; // sm.stages, nearest the LD/ST unit first
  std::unique_ptr<tlm_utils::simple_target_socket<SmModule>> unused_lsu_;
  std::unique_ptr<StatGroup> mem_ops_;
  BackingStore* direct_ = nullptr;         // use_direct_memory
  Counter* direct_instructions_ = nullptr; // made only when direct_ is set
  bool barriers_down_path_ = false;        // a stage orders barriers (PathStage::orders_barriers)
  IssueGate* gate_ = nullptr;              // a stage's say over issue (issue_gate.hpp)
  Counter* gate_taken_ = nullptr;          // made only with a gate, like the next one
  Counter* stall_gate_ = nullptr;
  Counter* stall_lsu_queue_ = nullptr; // made only with a bounded sm.lsu_queue
  bool released_ = false;              // kernel_end_release ran in this kernel
  sc_core::sc_event work_, response_;
  // Something the loop may act on happened: response_ in lt and
  // functional, a step now in at (sm_loop_module.cpp).
  void wake();
  // at: the loop as calendar steps (at_timer_ exists only in at).
  void at_step(uint64_t gen);
  void at_schedule(Cycle at);
  void count_skipped(Counter* stall, Cycle last, Cycle woke);
  std::unique_ptr<TimedQueue> at_timer_;
  uint64_t at_gen_ = 0;         // a step carrying an older number was overtaken
  uint64_t at_woken_ = ~0ull;   // the generation wake() last scheduled a pass for
  Cycle at_last_ = 0;           // the cycle of the last pass ...
  Counter* at_stall_ = nullptr; // ... the stall it counted ...
  bool at_waiting_ = false;     // ... and whether its skipped cycles are still to count
  Cycle lsu_free_ = 0;
  Cycle lt_now_ = 0; // lt: the run loop's local cycle
  enum class WriteWait : uint8_t { None, Reds, All } write_wait_;
  uint32_t writes_in_flight_ = 0;         // AT: non-blocking write requests sent, not yet acked
  uint64_t max_writes_in_flight_ = 0;     // AT: the most ever (a stat)
  std::deque<GpuPayload*> write_backlog_; // AT: write requests waiting for a slot
  std::vector<Cycle> write_slots_lt_;     // lt: acknowledgement cycles, a min-heap
  uint32_t exited_waiting_ = 0;           // warps exited, waiting for their writes
  bool skip_write_wait_ = false;
  bool relaxed_orders_ = false;     // sm.inject_fault = relaxed_orders
  bool kernel_end_pending_ = false; // AT: the kernel-end fence is not answered yet
  sc_core::sc_event kernel_end_done_;
  static constexpr uint32_t kNoWarp = ~0u; // in_flight_ slot of the kernel-end fence          //
                                           // sm.inject_fault = fence_skips_writes
  uint64_t functional_steps_ = 0;          // the LD/ST unit sends one line request per cycle

  Counter &warp_instructions_, &active_cycles_, &global_requests_, &atomic_requests_, &loads_,
      &stores_, &atomics_, &reds_, &shared_ops_, &barriers_, &fences_, &ctas_done_;
  Counter &stall_memory_, &stall_barrier_, &stall_scoreboard_, &stall_idle_, &stall_lsu_;
  Counter& lt_contention_syncs_;
  Counter &write_requests_, &write_slot_waits_;
  std::array<Counter*, 3> by_scope_{};
  std::array<Counter*, 6> by_order_{};
};

} // namespace tlmgpu
