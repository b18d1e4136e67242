// The calibrated kernel-time model of a node's GPU (seed-004 §7.1): a kernel
// takes launch + max(bytes / (hbm * eff(block)), flops / peak), with
// eff(b) = min(eff_full, b * eff_thread) so that STREAM's one-thread blocks
// stay far from peak (pitfall 15). Memsets stream at full HBM bandwidth.
#pragma once

#include "models/runtime/runtime_spec.hpp"
#include "models/runtime/task.hpp"

#include <algorithm>

namespace tlmgpu {

// The kernel's work without its launch (a managed-memory kernel's waves).
inline double work_seconds(const GpuTimeSpec& s, const rt::KernelCost& c) {
  const double eff = std::min(s.eff_full, std::max<uint32_t>(c.block, 1) * s.eff_thread);
  const double mem = double(c.bytes) / (s.hbm_gbps * 1e9 * eff);
  const double compute = double(c.flops) / (s.peak_gflops * 1e9);
  return std::max(mem, compute);
}

inline double kernel_seconds(const GpuTimeSpec& s, const rt::KernelCost& c) {
  return s.launch_us * 1e-6 + work_seconds(s, c);
}

inline double memset_seconds(const GpuTimeSpec& s, uint64_t bytes) {
  return double(bytes) / (s.hbm_gbps * 1e9);
}

} // namespace tlmgpu
