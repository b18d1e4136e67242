// `litmus-mp`: message passing between two CTAs on two SMs, the HRF litmus
// test of seed-002 §6.7 C (mp) on the GPU model. CTA 0 writes a line of data
// and then sets a flag with a release atomic at `release` scope; CTA 1 has
// read the data lines before (its L1 may hold them), waits for the flag with
// an acquire atomic at `acquire` scope and reads the data. Synchronised at
// device scope on both sides it must see every word the writer wrote; with a
// CTA (wg) scope on either side the program under-synchronises and may read
// stale words, which the workload counts (stat litmus_mp.stale_reads) rather
// than failing on. The check fails only for stale reads under device scope.
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct LitmusMpArgs {
  Addr data = 0;     // uint32_t[rounds * 32]: one 128 B line per round
  Addr flags = 0;    // uint32_t[(rounds + 1) * 32]: flag r at word r * 32 (own line);
                     // flag `rounds`: the reader is done
  Addr observed = 0; // uint32_t[rounds * 32]: what the reader saw
  uint32_t rounds = 8;
  uint32_t poll_loads = 0; // loads of each poller warp (workload argument pollers)
  bool prime = true;       // the reader pre-loads the data lines (a deliberate race)
  Scope release = Scope::Device, acquire = Scope::Device;
};

// Words of a round: one line of u32 per round, lane l at word l % 32.
constexpr uint32_t kLitmusWords = 32;
Lanes<Addr> litmus_round_words(Addr base, uint32_t r);

// The value the writer stores in word `i` of the data.
constexpr uint32_t litmus_mp_value(uint32_t i) {
  return 0x5a000000u | i;
}

// CTA 0 writes, CTA 1 reads; other CTAs return at once.
WarpTask litmus_mp_kernel(Warp& w, LitmusMpArgs a);

WorkloadEntry litmus_mp_workload();

} // namespace tlmgpu
