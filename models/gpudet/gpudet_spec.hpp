// GPUDet parameters, read under the `gpudet.` group (Jooybar et al., ASPLOS
// 2013, as the DAB paper describes and updates it: seeds/dab-paper.txt,
// engineering notes seed-001 §4 and §10.3). See README.md for the model.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct GpuDetSpec {
  bool enable = false, serial_overlap = false;
  uint32_t quantum = 0, store_buffer = 0, barrier_cycles = 0, store_cycles = 0;
  std::string inject_fault;

  template <class V>
  void visit(V& v) {
    v.param(enable, "enable", false, Range{}, "",
            "GPUDet (notes §4): quanta of parallel mode with private store buffers, a "
            "GPU-wide commit, then serial mode for atomics; adds the `gpudet` stage to every "
            "SM's memory path");
    v.param(quantum, "quantum", 200, Range{1, 100000000}, "instructions",
            "warp instructions a warp may issue per quantum (compute(n) counts n); the paper "
            "does not give it (notes §4: sweep 100..2000)");
    v.param(store_buffer, "store_buffer", 64, Range{32, 1048576}, "lines",
            "entries of each warp's private store buffer, one entry per line written (a byte "
            "mask); at least 32, since one warp store may touch 32 lines. A store that does "
            "not fit ends the warp's quantum (overflow)");
    v.param(barrier_cycles, "barrier_cycles", 20, Range{0, 100000}, "cycles",
            "from the last warp ending its quantum to the commit starting: the GPU-wide "
            "AND-reduction and broadcast (like dab.flush_start_cycles)");
    v.param(store_cycles, "store_cycles", 1, Range{1, 1000}, "cycles",
            "cycles a store taken into the store buffer occupies its warp");
    v.param(serial_overlap, "serial_overlap", true, Range{}, "",
            "serial mode overlaps the warps' atomics: each grant numbers the warp's requests "
            "per L2 slice (global warp id order) and a gpudet_sequencer in front of every "
            "slice applies them in that order (the topology places them: "
            "examples/dab/*-gpudet.json); the next grant follows the previous warp's issue "
            "(at) or one SM cycle (lt), not its answers. false: one L2 round trip per warp "
            "atomic, GPU-wide (notes §4 taken literally; 4-100x slower, docs/validation/dab.md)");
    v.choice(inject_fault, "inject_fault", "none",
             {"none", "serial_arrival", "no_forwarding", "sequencer_arrival"},
             "test hook: serial mode grants the held atomics in the order the warps reached "
             "them (timing) instead of global warp id (serial_arrival), loads do not see "
             "the warp's own buffered stores (no_forwarding), or the sequencers pass serial "
             "requests on in arrival order (sequencer_arrival, with serial_overlap); shows the "
             "tests catch a broken GPUDet");
  }
};

} // namespace tlmgpu
