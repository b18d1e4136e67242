#include "workloads/histogram/histogram_kernels.hpp"

namespace tlmgpu {

WarpTask histogram_kernel(Warp& w, HistogramArgs a) {
  const uint64_t stride = w.grid_threads();
  for (Lanes<uint64_t> i = w.global_thread_id();; i += Lanes<uint64_t>(stride)) {
    const Mask m = w.active() & (i < Lanes<uint64_t>(a.n));
    if (m.empty()) co_return;
    Lanes<uint32_t> px = co_await w.load<uint32_t>(address_of<uint32_t>(a.pixels, i), m);
    co_await w.compute(2); // bin index arithmetic
    const Lanes<Addr> bin = address_of<uint32_t>(a.hist, px % Lanes<uint32_t>(a.bins));
    if (a.racy) {
      Lanes<uint32_t> v = co_await w.load<uint32_t>(bin, m);
      co_await w.store<uint32_t>(bin, v + Lanes<uint32_t>(1u), m);
    } else {
      co_await w.red<uint32_t>(AtomicOp::Add, bin, Lanes<uint32_t>(1u), m, MemOrder::Commutative,
                               Scope::Device);
    }
  }
}

WarpTask histogram_shared_kernel(Warp& w, HistogramArgs a) {
  const uint32_t threads = uint32_t(w.block_dim().count());
  for (uint32_t b0 = 0; b0 < a.bins; b0 += threads) {
    const Lanes<uint32_t> b = w.thread_idx() + Lanes<uint32_t>(b0);
    const Mask m = w.active() & (b < Lanes<uint32_t>(a.bins));
    if (m.any())
      co_await w.shared_store<uint32_t>(address_of<uint32_t>(0, b), Lanes<uint32_t>(0u), m);
  }
  co_await w.barrier();
  const uint64_t stride = w.grid_threads();
  for (Lanes<uint64_t> i = w.global_thread_id();; i += Lanes<uint64_t>(stride)) {
    const Mask m = w.active() & (i < Lanes<uint64_t>(a.n));
    if (m.empty()) break;
    Lanes<uint32_t> px = co_await w.load<uint32_t>(address_of<uint32_t>(a.pixels, i), m);
    co_await w.compute(2);
    co_await w.shared_atomic<uint32_t>(AtomicOp::Add,
                                       address_of<uint32_t>(0, px % Lanes<uint32_t>(a.bins)),
                                       Lanes<uint32_t>(1u), m);
  }
  co_await w.barrier();
  for (uint32_t b0 = 0; b0 < a.bins; b0 += threads) {
    const Lanes<uint32_t> b = w.thread_idx() + Lanes<uint32_t>(b0);
    const Mask m = w.active() & (b < Lanes<uint32_t>(a.bins));
    if (m.empty()) continue;
    Lanes<uint32_t> v = co_await w.shared_load<uint32_t>(address_of<uint32_t>(0, b), m);
    co_await w.red<uint32_t>(AtomicOp::Add, address_of<uint32_t>(a.hist, b), v, m,
                             MemOrder::Commutative, Scope::Device);
  }
}

} // namespace tlmgpu
