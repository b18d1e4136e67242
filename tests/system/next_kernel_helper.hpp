// Shared by the LAB and PHI system tests: a histogram kernel whose device
// reds may sit in an SM-side buffer, then a copy kernel that must see every
// one of them (kernel end flushes). Bins are filled evenly: 64 pixels each.
// More bins make a longer kernel-end flush burst (a multiple of 64).
#pragma once

#include "tlmgpu/app/host_program.hpp"
#include "workloads/histogram/histogram_kernels.hpp"

#include <vector>

namespace tlmgpu::test {

struct CopyArgs {
  Addr from, to;
  uint32_t n;
};
inline WarpTask copy_kernel(Warp& w, CopyArgs a) {
  const Lanes<uint64_t> i = w.global_thread_id();
  const Mask m = w.active() & (i < Lanes<uint64_t>(a.n));
  if (m.empty()) co_return;
  Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.from, i), m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.to, i), v, m);
}

struct NextKernelResult {
  std::vector<uint32_t> copied; // what the second kernel read
  std::vector<uint32_t> hist;   // the histogram in memory at the end
  ProgramResult run;
  uint32_t expected = 0; // every bin's count
};

inline NextKernelResult histogram_then_copy(const PlatformSpec& p, TimingMode mode,
                                            uint32_t bins = 64) {
  const uint32_t n = 64 * bins;
  std::vector<uint32_t> px(n);
  for (uint32_t i = 0; i < n; ++i)
    px[i] = (i * 7) % bins;
  NextKernelResult r;
  r.expected = n / bins;
  r.run = run_host_program(p, mode, 1, [&](HostModule& h) {
    HistogramArgs a;
    a.pixels = h.upload(px);
    a.hist = h.malloc(bins * 4);
    a.n = n;
    a.bins = bins;
    h.memset(a.hist, 0, bins * 4);
    h.launch({"histogram", {4, 1, 1}, {128, 1, 1}, 0, 32, [a](Warp& w) {
                return histogram_kernel(w, a);
              }});
    CopyArgs c{a.hist, h.malloc(bins * 4), bins};
    h.launch(
        {"copy", {bins / 64, 1, 1}, {64, 1, 1}, 0, 32, [c](Warp& w) { return copy_kernel(w, c); }});
    h.synchronize();
    r.copied = h.download<uint32_t>(c.to, bins);
    r.hist = h.download<uint32_t>(a.hist, bins);
  });
  return r;
}

} // namespace tlmgpu::test
