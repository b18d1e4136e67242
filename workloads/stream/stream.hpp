// `stream`: y[j] = a * x[i] + y[j] (op=axpy: one load of x, one load and
// one store of y per element) or y[j] = a * x[i] (op=scale: y is never
// read), j = i * stride, over u32 arrays, no atomics, checked against the
// CPU. Streaming kernels whose stores have no reuse. With op=scale and
// stride > 1 every store writes sectors only partly, so a fetch-on-write L1
// (l1.atomic_mode = phi) fetches them first and loses time (seed-000 §5.6:
// PHI on streaming Rodinia apps).
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct StreamArgs {
  Addr x = 0, y = 0; // uint32_t[n]
  uint64_t n = 0;
  uint32_t a = 3, stride = 1; // y has n * stride elements
  bool axpy = true;           // false: y[i] = a * x[i]
};

// Grid-stride y[i * stride] = a * x[i] (+ y[i * stride] when axpy), u32,
// wrapping.
WarpTask stream_kernel(Warp& w, StreamArgs a);

WorkloadEntry stream_workload();

} // namespace tlmgpu
