// `litmus-rsp`: message passing with remote scope promotion (seed-002 §6.7 C,
// "mp with remote acquire/release") on the GPU model. An owner (CTA 0)
// synchronises at CTA (wg) scope only, so its data stays in its L1; a thief
// (CTA 1, another SM) synchronises with it by remote atomics at device
// scope. Both directions each round:
//   A: owner stores data_a[r], releases flag_a[r] at cta scope; the thief
//      rem_acq's flag_a[r] and reads data_a[r] (needs the owner's L1 flushed)
//   B: thief stores data_b[r], rem_rel's flag_b[r]; the owner, which read
//      data_b before, acquires flag_b[r] at cta scope and reads data_b[r]
//      (needs the owner's L1 invalidated)
// With l1.rsp = brsp, srsp or srsp_opt no word may be stale; with l1.rsp = none the remote
// atomics are plain device-scope ones and stale words are counted, not
// failed (the negative control).
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct LitmusRspArgs {
  Addr data_a = 0, data_b = 0;         // uint32_t[rounds * 32]: one line per round
  Addr flags_a = 0, flags_b = 0;       // uint32_t[rounds * 32]: flag r at word r * 32
  Addr observed_a = 0, observed_b = 0; // what the thief (a) and the owner (b) saw
  uint32_t rounds = 8;
  uint32_t poll_loads = 0; // loads of each poller warp (workload argument pollers)
  // Workload argument one_flag: every round reuses flag word 0 of each
  // direction and sets it to r + 1 (a counter), so the same line is
  // released and promoted again each round (sRSPOpt's owner predictor).
  bool one_flag = false;
};

// The value written to word `i` of direction A's data (owner) and B's (thief).
constexpr uint32_t litmus_rsp_value(bool b, uint32_t i) {
  return (b ? 0x6b000000u : 0x5a000000u) | i;
}

WarpTask litmus_rsp_kernel(Warp& w, LitmusRspArgs a);

WorkloadEntry litmus_rsp_workload();

} // namespace tlmgpu
