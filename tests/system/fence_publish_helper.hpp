// Shared by the LAB and PHI system tests: a device fence must publish the
// device reds an SM-side buffer holds. One warp (CTA 0, SM 0) adds 5 to every
// word of `lines` lines (buffered), fences at device scope and raises a flag.
// CTA 1 (SM 1) spins on the flag with value-returning atomics (performed at
// L2), fences (acquire: its L1 drops its copies) and copies the lines out,
// last buffered line first. A fence that completed before its buffered
// updates reached L2 lets the reader see a word other than 5.
#pragma once

#include "tlmgpu/app/host_program.hpp"

#include <vector>

namespace tlmgpu::test {

struct FenceArgs {
  Addr data, flag, out;
  uint32_t lines;
};
inline WarpTask fence_publish_kernel(Warp& w, FenceArgs a) {
  const Lanes<uint64_t> lane = w.thread_idx().as<uint64_t>();
  const Mask m = w.active();
  if (w.cta_id().x == 0) {
    for (uint32_t l = 0; l < a.lines; ++l)
      co_await w.red<uint32_t>(AtomicOp::Add, address_of<uint32_t>(a.data, lane + 32 * l),
                               Lanes<uint32_t>(5u), m, MemOrder::Commutative, Scope::Device);
    co_await w.fence(Scope::Device);
    co_await w.atomic<uint32_t>(AtomicOp::Exch, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u),
                                Mask::lane(0));
    co_return;
  }
  for (;;) {
    Lanes<uint32_t> f = co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(a.flag),
                                                    Lanes<uint32_t>(0u), Mask::lane(0));
    if (f[0] == 1) break;
    co_await w.compute(4);
  }
  co_await w.fence(Scope::Device);
  for (uint32_t l = a.lines; l-- > 0;) {
    Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.data, lane + 32 * l), m);
    co_await w.store<uint32_t>(address_of<uint32_t>(a.out, lane + 32 * l), v, m);
  }
}

struct FencePublishResult {
  uint32_t wrong = 0; // words the reader saw that were not 5
  ProgramResult run;
};

// Runs the kernel on `p` (at least 2 SMs) in `mode`.
inline FencePublishResult fence_publish(const PlatformSpec& p, TimingMode mode, uint32_t lines) {
  std::vector<uint32_t> out;
  FencePublishResult r;
  r.run = run_host_program(p, mode, 1, [&](HostModule& h) {
    FenceArgs a{h.malloc(lines * 128), h.malloc(128), h.malloc(lines * 128), lines};
    h.memset(a.data, 0, lines * 128);
    h.memset(a.flag, 0, 128);
    h.memset(a.out, 0, lines * 128);
    h.launch({"fence", {2, 1, 1}, {32, 1, 1}, 0, 32, [a](Warp& w) {
                return fence_publish_kernel(w, a);
              }});
    h.synchronize();
    out = h.download<uint32_t>(a.out, lines * 32);
  });
  for (uint32_t v : out)
    r.wrong += v != 5;
  return r;
}

} // namespace tlmgpu::test
