// The histogram kernels of the LAB paper (Listing 1 and its shared-memory
// variant), written per warp. Shared by the workload and the tests.
#pragma once

#include "tlmgpu/simt/warp.hpp"

namespace tlmgpu {

struct HistogramArgs {
  Addr pixels = 0; // uint32_t[n]
  Addr hist = 0;   // uint32_t[bins], zeroed by the host
  uint64_t n = 0;
  uint32_t bins = 256;
  bool racy = false; // plain load/add/store instead of an atomic: a wrong kernel
};

// atomicAdd(&hist[in[i] % bins], 1) over a grid-stride loop; device scope,
// memory_order_comm, result unused (compiles to RED).
WarpTask histogram_kernel(Warp& w, HistogramArgs a);

// Per-CTA sub-histogram in shared memory (shared atomics), a barrier, then one
// device atomic per bin per CTA. Needs bins * 4 bytes of shared memory.
WarpTask histogram_shared_kernel(Warp& w, HistogramArgs a);

} // namespace tlmgpu
