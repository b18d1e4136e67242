// Concurrent kernels on the kernel-time model (models/node/kernel_sharing.hpp):
// small kernels run side by side at their own speed, full-GPU kernels share
// the GPU so that its work is conserved, and a start or an end re-times the
// others.
#include "models/node/kernel_sharing.hpp"
#include "models/node/kernel_time.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

TEST_CASE("kernel sharing: small kernels run side by side at their own speed",
          "[node][kernel_sharing]") {
  KernelSharing k;
  const uint64_t a = k.add(0, 1.0, 0.3), b = k.add(0, 2.0, 0.3);
  CHECK(k.speed() == 1);
  CHECK(k.finish_s(a) == Approx(1.0));
  CHECK(k.finish_s(b) == Approx(2.0));
}

TEST_CASE("kernel sharing: two full-GPU kernels take as long as one after the other",
          "[node][kernel_sharing]") {
  KernelSharing k;
  const uint64_t a = k.add(0, 1.0, 1.0), b = k.add(0, 1.0, 1.0);
  CHECK(k.speed() == Approx(0.5));
  CHECK(k.finish_s(a) == Approx(2.0));
  k.remove(2.0, a);
  CHECK(k.left_s(b) == Approx(0).margin(1e-12));
}

TEST_CASE("kernel sharing: a start slows the running kernel, an end speeds it up again",
          "[node][kernel_sharing]") {
  KernelSharing k;
  const uint64_t a = k.add(0, 2.0, 0.8);
  CHECK(k.finish_s(a) == Approx(2.0));
  // at 1 s a second kernel (0.8 of the GPU, 0.5 s alone) starts: 1.6 of the
  // GPU wanted, each runs at 1/1.6 of its speed
  const uint64_t b = k.add(1.0, 0.5, 0.8);
  CHECK(k.left_s(a) == Approx(1.0));
  CHECK(k.speed() == Approx(1 / 1.6));
  CHECK(k.finish_s(b) == Approx(1.8));
  k.remove(1.8, b);
  // a did 0.8 s x 1/1.6 = 0.5 s of its work meanwhile: 0.5 s left, alone
  CHECK(k.left_s(a) == Approx(0.5));
  CHECK(k.finish_s(a) == Approx(2.3));
  CHECK(k.running() == 1);
}

TEST_CASE("kernel sharing: a kernel's share of the GPU", "[node][kernel_sharing]") {
  GpuTimeSpec s;
  s.hbm_gbps = 850;
  s.peak_gflops = 7000;
  s.eff_full = 0.9;
  s.eff_thread = 0.02;
  rt::KernelCost stream_1{1 << 20, 0, 1}; // STREAM's one-thread blocks: 2 % of the HBM
  CHECK(gpu_share(s, stream_1) == Approx(0.02 / 0.9));
  rt::KernelCost full{1 << 20, 0, 256};
  CHECK(gpu_share(s, full) == Approx(1.0));
  rt::KernelCost compute{8, uint64_t(1) << 30, 1}; // its compute term decides: the whole GPU
  CHECK(gpu_share(s, compute) == Approx(1.0));
}
