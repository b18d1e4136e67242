// `litmus-lock`: the asymmetric lock counter of seed-002 §6.7 C on the GPU
// model. CTA 0 (the owner) takes and frees a spin lock at CTA (wg) scope;
// CTAs 1..thieves, on other SMs, take it with remote atomics (rem_acq CAS,
// rem_rel exchange). Inside the lock each increments a line of 32 counters
// with plain loads and stores, `iters` times. With remote scope promotion
// every counter ends at (1 + thieves) x iters; without it (l1.rsp = none)
// increments are lost (counted, not failed: the negative control).
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct LitmusLockArgs {
  Addr lock = 0;    // uint32_t[32]: word 0 is the lock, words 1, 2: ready, thieves done
  Addr counter = 0; // uint32_t[32]: one line of counters
  uint32_t iters = 8;
  uint32_t thieves = 1;
};

WarpTask litmus_lock_kernel(Warp& w, LitmusLockArgs a);

WorkloadEntry litmus_lock_workload();

} // namespace tlmgpu
