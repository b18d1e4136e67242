// The ML-training-like reductions of the seed papers: `bwc` (cuDNN-style
// backward-filter convolution, LAB BWC / DAB ResNet layers) and `logreg`
// (logistic-regression gradient over the real digits data). Both accumulate
// float gradients with device-scope commutative atomicAdd (PTX red.add.f32).
#pragma once

#include "workloads/workload.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace tlmgpu {

WorkloadEntry bwc_workload();
WorkloadEntry logreg_workload();

namespace ml_apps {

// The `corrupt=1` test hook: flips the top exponent bit of one device float
// before the check. |v| < 2 becomes >= 2^1 (often ~2^128), |v| >= 2 becomes
// < 2^-126, so the value moves by at least min(|v|, 2), far beyond any
// rounding tolerance unless the whole sum cancels to rounding noise.
inline float flip_exponent_bit(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  b ^= 1u << 30;
  std::memcpy(&v, &b, 4);
  return v;
}

} // namespace ml_apps
} // namespace tlmgpu
