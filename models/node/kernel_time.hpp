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
inline double efficiency(const GpuTimeSpec& s, const rt::KernelCost& c) {
  return std::min(s.eff_full, std::max<uint32_t>(c.block, 1) * s.eff_thread);
}
inline double memory_seconds(const GpuTimeSpec& s, const rt::KernelCost& c) {
  return double(c.bytes) / (s.hbm_gbps * 1e9 * efficiency(s, c));
}
inline double compute_seconds(const GpuTimeSpec& s, const rt::KernelCost& c) {
  return double(c.flops) / (s.peak_gflops * 1e9);
}

inline double work_seconds(const GpuTimeSpec& s, const rt::KernelCost& c) {
  return std::max(memory_seconds(s, c), compute_seconds(s, c));
}

// The share of the GPU a kernel occupies alone (concurrent kernels,
// kernel_sharing.hpp): eff(block) / eff_full when its memory term decides,
// all of it when its compute term does (the peak is the whole GPU's).
inline double gpu_share(const GpuTimeSpec& s, const rt::KernelCost& c) {
  return memory_seconds(s, c) >= compute_seconds(s, c) ? efficiency(s, c) / s.eff_full : 1.0;
}

inline double kernel_seconds(const GpuTimeSpec& s, const rt::KernelCost& c) {
  return s.launch_us * 1e-6 + work_seconds(s, c);
}

inline double memset_seconds(const GpuTimeSpec& s, uint64_t bytes) {
  return double(bytes) / (s.hbm_gbps * 1e9);
}

} // namespace tlmgpu
