// GPUDet's GPU-wide phases (notes seed-001 §4 "Model state machine"): one
// per GPU, shared by every SM's gpudet stage (SimContext::shared "gpudet").
// Like DabFlushControl, a plain object with one SystemC thread, not a block
// with sockets: in hardware it is an AND-reduction of the warps' "quantum
// over" bits, a broadcast, and the serial-mode token.
//
//   PARALLEL ── every warp of every SM ended its quantum (or exited) ──►
//     (gpudet.barrier_cycles)
//   COMMIT   commit_writes(): per byte the highest global warp id wins; every
//            SM sends the lines it won; wait for every answer
//   SERIAL   held atomics sorted by global warp id: grant one, wait for its
//            answers at the stage, grant the next; with gpudet.serial_overlap
//            grant the next once it has issued (its requests numbered per L2
//            slice, applied in that order by the gpudet_sequencer in front of
//            each slice), and end the round when every answer is in
//   open     each SM's L1 drops its copies (memory changed), counts reset,
//            gathered barriers go through ──► PARALLEL
#pragma once

#include "models/gpudet/gpudet_spec.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <systemc>

#include <vector>

namespace tlmgpu {

class GpuDetModule;
class GpuDetSequencerModule;

class GpuDetControl {
public:
  GpuDetControl(SimContext& ctx, const GpuDetSpec& spec, double clock_mhz);
  // The GPU's one (SimContext::shared "gpudet"), made by the first stage that asks.
  static GpuDetControl& of(const StageContext& c, const GpuDetSpec& spec) {
    return c.ctx.shared<GpuDetControl>(
        "gpudet", [&] { return std::make_unique<GpuDetControl>(c.ctx, spec, c.sm_clock_mhz); });
  }
  void attach(GpuDetModule* sm_stage);
  void attach(GpuDetSequencerModule* unit, uint32_t slice);
  // The next serial request's number towards L2 slice `slice` (1, 2, ...).
  uint64_t next_serial(uint32_t slice);
  // Something changed (a warp ended its quantum, a request was answered).
  void poke() { poke_.notify(sc_core::SC_ZERO_TIME); }
  uint64_t next_arrival() { return ++arrivals_; }
  // A launch: its first quantum starts now (every SM calls it at once).
  void kernel_begins() { parallel_since_ = now(); }

private:
  void run(); // the phases' thread
  bool quantum_over() const;
  bool busy() const; // the kernel end waits: buffered stores or a phase running
  bool commit();     // false: nothing was buffered
  bool serial();     // false: no warp waited at an atomic
  void check_sequencers() const;
  void open(bool invalidate);
  // at: waits (on pokes) until done() holds; lt/functional: until `last`.
  template <class F>
  void settle(F done, const sc_core::sc_time& last);
  Cycle now() const { return clk_.at(sc_core::sc_time_stamp()); }

  SimContext& ctx_;
  const GpuDetSpec& spec_;
  Clock clk_;
  std::vector<GpuDetModule*> sms_;
  std::vector<GpuDetSequencerModule*> sequencers_; // by L2 slice
  std::vector<uint64_t> serial_numbers_;           // by L2 slice: the last number taken
  sc_core::sc_event poke_, changed_;
  bool parallel_ = true;
  uint64_t arrivals_ = 0;
  Cycle parallel_since_ = 0;
  Counter &quanta_, &parallel_cycles_, &commit_cycles_, &serial_cycles_, &serial_warps_,
      &commit_lines_;
};

} // namespace tlmgpu
