// Streaming multiprocessor: warp slots running kernel coroutines, one issue
// per scheduler per cycle (pluggable policy), a coalescer turning global
// memory instructions into line requests for the L1 (the LD/ST path), shared
// memory, barriers and fences. See models/sm/README.md.
//
//   warps (coroutines) --issue--> [schedulers x N] --> ALU | shared memory
//                                                  \--> coalescer --> lsu --> l1 ==> xbar
#pragma once

#include "models/l1/l1_module.hpp"
#include "models/lab/lab_core.hpp"
#include "models/shared_mem/shared_mem_core.hpp"
#include "models/sm/atomic_profile.hpp"
#include "models/sm/coalescer.hpp"
#include "models/sm/lab_injection.hpp"
#include "models/sm/scheduler.hpp"
#include "tlmgpu/device_memory.hpp"
#include "tlmgpu/sim/kernel.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

constexpr bool is_global_memory(WarpInstr::Kind k) {
  return k == WarpInstr::Kind::Load || k == WarpInstr::Kind::Store ||
         k == WarpInstr::Kind::Atomic || k == WarpInstr::Kind::Red;
}

class GoldenMemory; // models/lab/golden_memory.hpp

class SmModule : public sc_core::sc_module {
public:
  SmModule(sc_core::sc_module_name n, SimContext& ctx, uint16_t id, StatGroup& parent);
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
  void begin_kernel(const KernelLaunch& k, const DeviceMemory& mem);
  void start_cta(uint32_t cta_linear); // caller checked occupancy
  // A CTA retired on SM `sm` at SM cycle `at` (in lt the SM's local time,
  // which may run up to a quantum ahead of the kernel's).
  std::function<void(uint16_t sm, Cycle at)> on_cta_done;
  AtomicProfile* atomic_profile = nullptr; // GPU-wide, owned by GpuModule
  // paper_compatible LAB only: GPU-wide, owned by GpuModule (null otherwise).
  GoldenMemory* golden_memory = nullptr;
  bool busy() const { return live_ctas_ > 0; }
  // Ordering point: send every buffered partial update to L2. Returns the
  // SM cycle the last packet completes (now if none or if it costs no time;
  // in AT the caller waits for lab_settled, or lab_wait for a warp).
  Cycle flush_lab(bool kernel_end = false);
  // This SM's kernel end (notes §1.7 [C]): it runs no CTA and none will
  // come, so its LAB flushes now (at `at`), while other SMs may still run.
  // Once per kernel; `others_running` counts it in
  // lab.flushes_before_kernel_end. lab_flush_done() is the cycle its last
  // packet completes (lt), for the kernel end to wait for.
  void end_of_work(Cycle at, bool others_running);
  Cycle lab_flush_done() const { return work_flush_done_; }
  const LabCore* lab() const { return lab_.get(); }
  // Kernel end (GpuModule::synchronize, no CTA left): a system-scope fence
  // down this SM's memory path. functional/lt: returns the SM cycle it was
  // answered; AT: returns now, and kernel_end_pending() holds until the
  // answer (kernel_end_event()).
  Cycle kernel_end_release();
  bool kernel_end_pending() const { return kernel_end_pending_; }
  const sc_core::sc_event& kernel_end_event() const { return kernel_end_done_; }
  // AT: no LAB packet queued or waiting for L2's reply (the kernel end waits
  // for it after flush_lab); always true in functional and lt.
  bool lab_settled() const;
  const sc_core::sc_event& lab_settled_event() const { return lab_at_->settled; }

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
    // sm.blocking_writes): AT counts the requests not yet acknowledged (LAB
    // requests until they entered the LAB); lt keeps the cycle the last one
    // is acknowledged. Fences and the warp's exit wait for them.
    uint32_t writes = 0;
    Cycle writes_done = 0;
    bool exited = false; // the coroutine finished; the slot frees once its writes are acked
    enum class AfterWrites : uint8_t { None, Fence, Barrier } after_writes = AfterWrites::None;
    bool at_barrier = false;
    // paper_compatible: load lanes whose word the golden memory tracks, with
    // the value it held at issue; they replace the memory's answer.
    std::vector<std::pair<uint8_t, uint64_t>> golden_loads;
  };
  struct InFlight { // AT line request: whose it is and how to scatter its data
    uint32_t slot, lane_mask;
    uint8_t size;
    bool write; // non-blocking: the warp went on, the reply is an acknowledgement
  };
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
  void advance(uint32_t slot);     // resume the coroutine after its instruction completed
  void retire_warp(uint32_t slot); // its coroutine finished
  void free_warp(uint32_t slot);   // ... and its writes are acknowledged
  // Non-blocking writes (sm_ordering.cpp).
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
  void send_fence(uint32_t slot, Cycle now);
  GpuPayload* fence_payload(Scope scope, uint32_t slot); // slot kNoWarp: the kernel end
  void barrier(uint32_t slot, Cycle now);
  Cycle cur_cycle() const; // the SM's own cycle (lt: its local time)
  void on_lsu_response(Payload& t);
  void check_bounds(uint32_t slot, const WarpInstr& in) const;
  Cycle next_wakeup(Cycle now) const;
  Counter& stall_reason();
  [[noreturn]] void fail(uint32_t slot, const std::string& what) const;
  Cycle send_lab_packet(const LabEviction& ev, Cycle at, bool timed);
  Cycle flush_lab(bool kernel_end, Cycle now);
  void lab_golden(const LineRequest& r, const WarpInstr& in, Lanes<uint64_t>& results);
  void store_golden(const WarpInstr& in);
  void load_golden(WarpSlot& w, const WarpInstr& in);
  void answer_golden_loads(WarpSlot& w);

  // AT LAB path (sm_lab.cpp): eligible requests wait for the LAB pipeline,
  // its packets for the LD/ST port; ordering points wait for L2's replies.
  struct LabRequest {
    uint32_t slot;
    Addr line;
    GpuAccess access;
    bool write; // a non-blocking red: counted in the warp's writes
  };
  struct LabWait { // continues when every packet numbered below `mark` is acked
    enum Kind : uint8_t { Fence, Barrier, FlushStat } kind;
    uint32_t slot;
    uint64_t mark;
    Cycle start;
  };
  struct LabAt {
    LabAt(const LabSpec& s, StatGroup& g);
    LabInjection<GpuPayload> inject;
    RecycledFifo<LabRequest> requests;
    std::deque<LabWait> waits; // in mark order
    TimedQueue timer;
    Cycle next_tick = 0;
    uint32_t entered = 0; // adjacent requests of the head's warp (and kind) already in the LAB
    bool tick_pending = false;
    sc_core::sc_event settled;
    Counter &icnt_fail, &flushes, &flush_packets, &flush_cycles;
  };
  void lab_enqueue(uint32_t slot, const LineRequest& r, const WarpInstr& in, bool write);
  void lab_kick();
  void lab_tick();
  void lab_queue_packet(const LabEviction& ev);
  void lab_request_done(uint32_t slot, uint32_t n, bool write);
  void lab_flush_async(Cycle now, bool kernel_end);
  bool lab_ack(Payload& t); // false: not a LAB packet
  bool lab_wait(uint32_t slot, LabWait::Kind kind);
  void lab_progress();
  void finish_fence(uint32_t slot, Cycle now);
  void enter_barrier(uint32_t slot, Cycle now);

  SimContext& ctx_;
  const SmSpec& spec_;
  Clock clk_;
  Coalescer coalescer_;
  SharedMemCore smem_;
  std::vector<std::unique_ptr<SchedulerPolicy>> schedulers_;
  std::vector<Cycle> sched_busy_until_;
  std::vector<WarpSlot> warps_;
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
  std::unordered_map<Payload*, InFlight> in_flight_;
  std::unique_ptr<StatGroup> mem_ops_;
  std::unique_ptr<StatGroup> lab_stats_;
  std::unique_ptr<LabCore> lab_; // null when the platform has no LAB
  Counter* lab_packets_ = nullptr;
  Counter* lab_golden_returns_ = nullptr; // paper_compatible only
  Counter* lab_golden_loads_ = nullptr;   // paper_compatible only
  Counter* lab_early_flushes_ = nullptr;
  bool work_flushed_ = false; // end_of_work ran in this kernel
  Cycle work_flush_done_ = 0;
  std::unique_ptr<LabAt> lab_at_; // AT with a LAB only
  sc_core::sc_event work_, response_;
  Cycle lsu_free_ = 0;
  Cycle lt_now_ = 0; // lt: the run loop's local cycle
  enum class WriteWait : uint8_t { None, Reds, All } write_wait_;
  uint32_t writes_in_flight_ = 0;     // AT: non-blocking write requests sent or in the LAB queue
  uint64_t max_writes_in_flight_ = 0; // AT: the most ever (a stat)
  std::deque<GpuPayload*> write_backlog_; // AT: write requests waiting for a slot
  std::vector<Cycle> write_slots_lt_;     // lt: acknowledgement cycles, a min-heap
  uint32_t exited_waiting_ = 0;           // warps exited, waiting for their writes
  bool skip_write_wait_ = false;
  bool kernel_end_pending_ = false; // AT: the kernel-end fence is not answered yet
  sc_core::sc_event kernel_end_done_;
  static constexpr uint32_t kNoWarp = ~0u; // in_flight_ slot of the kernel-end fence          //
                                           // sm.inject_fault = fence_skips_writes
  uint64_t functional_steps_ = 0;          // the LD/ST unit sends one line request per cycle

  Counter &warp_instructions_, &active_cycles_, &global_requests_, &atomic_requests_, &loads_,
      &stores_, &atomics_, &reds_, &shared_ops_, &barriers_, &fences_, &ctas_done_;
  Counter &stall_memory_, &stall_barrier_, &stall_scoreboard_, &stall_idle_, &stall_lsu_;
  Counter &write_requests_, &write_slot_waits_;
  std::array<Counter*, 3> by_scope_{};
  std::array<Counter*, 6> by_order_{};
};

} // namespace tlmgpu
