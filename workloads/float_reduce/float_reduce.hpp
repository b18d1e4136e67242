// `float-reduce`: the order-sensitive microbenchmark of seed-001 §6.3 and
// §10.5 item 2. Float values spanning many decades (10^-d .. 10^d, mixed
// signs) are added with float atomicAdd whose result is unused (PTX red) into
// a few words. Float addition does not associate, so the bits of each sum
// depend on the order the memory system applied the reds: a run that
// perturbs that order shows in the output hash (stats.json output_hash).
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct FloatReduceArgs {
  Addr values = 0; // float[n]
  Addr sums = 0;   // float[addresses], zeroed by the host
  uint64_t n = 0;
  uint32_t addresses = 4;
  MemOrder order = MemOrder::Relaxed;
};

// Grid-stride: red.add.f32 sums[i % addresses] += values[i], device scope.
WarpTask float_reduce_kernel(Warp& w, FloatReduceArgs a);

WorkloadEntry float_reduce_workload();

} // namespace tlmgpu
