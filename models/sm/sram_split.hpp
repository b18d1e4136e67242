// How one SM's unified L1/shared SRAM is divided for a kernel: shared-memory
// carve-out, L1 data cache, and the LAB's lines (seed-000 §1.14, pitfall 9).
// Kernel-free; GpuModule applies the result to every L1 at each launch.
#pragma once

#include "models/l1/l1_spec.hpp"
#include "tlmgpu/sram_claim.hpp"

#include <cstdint>

namespace tlmgpu {

struct SramSplit {
  uint32_t smem_bytes = 0;    // shared-memory carve-out
  uint32_t claimed_bytes = 0; // taken from the L1 by path stages (the LAB; 0 for none and LAB-Inf)
  uint32_t l1_bytes = 0;      // L1 data bytes left: l1_ways x l1.sets x l1.line_bytes
  uint32_t l1_ways = 0;       // 0 = no L1 left for this kernel
};

// l1.carveout = fixed: the L1 is l1.bytes and shared memory the rest.
// l1.carveout = volta_adaptive (GPGPU-Sim `-adaptive_volta_cache_config 1`):
// shared memory is the smallest CUDA Volta carve-out {0, 8, 16, 32, 64, 96}
// KB holding `smem_used_bytes` (the resident CTAs' shared memory), the L1 the
// rest. Then the cache-size baselines apply (x l1.size_factor, +
// l1.carveout_adjust_bytes) and the claim (the LAB) takes its bytes from the L1 by
// removing whole ways (sets stay fixed, as in the authors' code, without its
// missing-`break` fall-through). Throws ConfigError, naming the keys, when
// the shared memory or the claim does not fit; an L1 left at 0 bytes is allowed.
SramSplit sram_split(const L1Spec& l1, const SramClaim& claim, uint32_t smem_used_bytes,
                     uint32_t unified_bytes);

} // namespace tlmgpu
