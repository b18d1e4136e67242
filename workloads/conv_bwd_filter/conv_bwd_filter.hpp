// `conv-bwd-filter`: the weight-gradient convolution of the DAB paper's
// ResNet layers (Table III) as cuDNN's non-deterministic algorithm 0 cuts it
// (seed-001 §3.6, §6.2, §10.6): dW is split into n regions, m * n CTAs run,
// and CTA c adds its partial sums into region c mod n with reds, so the m
// CTAs congruent mod n hit the same addresses in the same pattern. Whether
// those land on one SM (72 SMs for n = 18) or not (80) is what decides atomic
// fusion in the paper. type=u32 is the integer twin whose sums are exact in
// any order.
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/conv_bwd_filter/conv_core.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct ConvArgs {
  Addr x = 0, dy = 0, dw = 0; // T X[N][C][H][W], dY[N][K][P][Q], dW[K][C][R][S]
  conv::Shape shape;
  conv::Mapping map;
  MemOrder order = MemOrder::Relaxed;
};

// T = float (red.add.f32, FMA partial sums) or uint32_t (red.add.u32).
template <class T>
WarpTask conv_bwd_filter_kernel(Warp& w, ConvArgs a);

WorkloadEntry conv_bwd_filter_workload();

} // namespace tlmgpu
