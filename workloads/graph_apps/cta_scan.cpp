#include "workloads/graph_apps/cta_scan.hpp"

#include <bit>

namespace tlmgpu::graph_apps {
namespace {

Lanes<Addr> slot_addr(Addr row, const Lanes<uint32_t>& i) {
  return address_of<uint64_t>(row, i); // 8-byte slots for either type
}

// Inclusive warp scan of x in place, in the padded row at `row` (warp-
// synchronous: each step's load sees the previous step's store of every
// lane, as on a warp in lock-step with volatile shared memory). The final
// values stay in the row, where cta_scan reads the warp totals.
template <class T>
WarpTask warp_scan(Warp& w, Addr row, Lanes<T>& x) {
  const uint32_t width = w.lane_count();
  const Mask all = w.active();
  const Lanes<uint32_t> at = lane_index() + Lanes<uint32_t>(width);
  co_await w.shared_store<T>(slot_addr(row, at), x, all);
  for (uint32_t d = 1; d < width; d *= 2) {
    const Lanes<T> y = co_await w.shared_load<T>(slot_addr(row, at - Lanes<uint32_t>(d)), all);
    x += y;
    co_await w.compute(1);
    co_await w.shared_store<T>(slot_addr(row, at), x, all);
  }
}

unsigned last_lane(Mask m) {
  return 63u - unsigned(std::countl_zero(m.bits()));
}

// Zeroes the `width` padding slots of a row. A partial warp (the CTA's last,
// when the block is not a multiple of the width) has fewer lanes than
// slots, so its lanes store in turns: padding left holding another CTA's
// data would enter the scan.
WarpTask zero_padding(Warp& w, Addr row) {
  const uint32_t lanes = w.active().count(); // the existing lanes are the low ones
  for (uint32_t j = 0; j < w.lane_count(); j += lanes) {
    const Lanes<uint32_t> at = lane_index() + Lanes<uint32_t>(j);
    co_await w.shared_store<uint64_t>(slot_addr(row, at), Lanes<uint64_t>(0),
                                      w.active() & (at < Lanes<uint32_t>(w.lane_count())));
  }
}

} // namespace

WarpTask cta_scan_init(Warp& w, CtaScanLayout s) {
  co_await zero_padding(w, s.warp_row(w.warp_in_cta()));
  if (w.warp_in_cta() == 0) co_await zero_padding(w, s.totals());
}

template <class T>
WarpTask cta_scan(Warp& w, CtaScanLayout s, Lanes<T> x, Mask m, Lanes<T>& exclusive, T& total) {
  const uint32_t k = w.warp_in_cta(), width = s.width;
  x = select(m, x, Lanes<T>(0));
  Lanes<T> inclusive = x;
  co_await warp_scan(w, s.warp_row(k), inclusive);
  // The warp's last lane publishes the warp total.
  const unsigned last = last_lane(w.active());
  co_await w.shared_store<T>(Lanes<Addr>(s.totals() + 8 * Addr(width + k)), inclusive,
                             Mask::lane(last));
  co_await w.barrier();
  if (k == 0) {
    const Mask have = w.active() & (lane_index() < Lanes<uint32_t>(s.warps));
    Lanes<T> t = co_await w.shared_load<T>(slot_addr(s.totals(), lane_index() + width), have);
    co_await warp_scan(w, s.totals(), t); // lanes past the warps hold 0
  }
  co_await w.barrier();
  // Inclusive total of warps 0..k-1 (the padding's 0 for warp 0) and of all.
  const Mask one = Mask::lane(w.active().first());
  const T before = (co_await w.shared_load<T>(Lanes<Addr>(s.totals() + 8 * Addr(width + k - 1)),
                                              one))[one.first()];
  total = (co_await w.shared_load<T>(Lanes<Addr>(s.totals() + 8 * Addr(width + s.warps - 1)),
                                     one))[one.first()];
  co_await w.compute(2);
  exclusive = inclusive - x + Lanes<T>(before);
}

template WarpTask cta_scan<uint32_t>(Warp&, CtaScanLayout, Lanes<uint32_t>, Mask, Lanes<uint32_t>&,
                                     uint32_t&);
template WarpTask cta_scan<uint64_t>(Warp&, CtaScanLayout, Lanes<uint64_t>, Mask, Lanes<uint64_t>&,
                                     uint64_t&);

WarpTask cta_reserve(Warp& w, CtaScanLayout s, Addr counter, uint32_t amount, uint32_t& base) {
  const Mask leader = Mask::lane(w.active().first());
  if (w.warp_in_cta() == 0 && amount > 0) {
    const Lanes<uint32_t> old = co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(counter),
                                                            Lanes<uint32_t>(amount), leader);
    co_await w.shared_store<uint32_t>(Lanes<Addr>(s.base()), old, leader);
  }
  co_await w.barrier();
  base = 0;
  if (amount > 0)
    base = (co_await w.shared_load<uint32_t>(Lanes<Addr>(s.base()), leader))[leader.first()];
}

WarpTask cta_append(Warp& w, CtaScanLayout s, Addr counter, Addr out, Lanes<uint32_t> value,
                    Mask keep) {
  Lanes<uint32_t> before;
  uint32_t total = 0;
  co_await cta_scan<uint32_t>(w, s, Lanes<uint32_t>(1u), keep, before, total);
  uint32_t base = 0;
  co_await cta_reserve(w, s, counter, total, base);
  if (keep.any())
    co_await w.store<uint32_t>(address_of<uint32_t>(out, before + Lanes<uint32_t>(base)), value,
                               keep);
}

} // namespace tlmgpu::graph_apps
