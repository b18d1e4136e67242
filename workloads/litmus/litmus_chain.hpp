// `litmus-chain`: the three-party chain of seed-002 §6.7 C on the GPU
// model. Warp 0 of the owner CTA writes X and releases L at CTA scope; a
// thief CTA on another SM acquires L remotely, reads X, writes Z and
// releases L remotely; warp 1 of the owner CTA, which loaded Z (and X)
// before it all started, acquires L at CTA scope once the thief's release
// is there and reads Z and X. Forbidden: the thief seeing an old X, or the
// owner's second warp seeing an old Z or X. With remote scope promotion
// (l1.rsp set) nothing is stale; with none the thief's acquire and the
// owner's cta-scope acquire do not reach each other's writes (counted, not
// failed: the negative control). Race-free under --check-races when
// promoted: warp 1's early loads are ordered before everything by a barrier.
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct LitmusChainArgs {
  Addr x = 0, z = 0;   // uint32_t[rounds * 32]: one line per round each
  Addr flags = 0;      // uint32_t[rounds * 32]: L of round r at word r * 32
  Addr seen_x = 0;     // uint32_t[rounds * 32]: X as the thief read it
  Addr owner_seen = 0; // uint32_t[rounds * 64]: Z then X as warp 1 read them
  uint32_t rounds = 4;
};

WarpTask litmus_chain_kernel(Warp& w, LitmusChainArgs a);

WorkloadEntry litmus_chain_workload();

} // namespace tlmgpu
