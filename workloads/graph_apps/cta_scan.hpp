// CTA-wide prefix sums and queue reservation for the scan-based GPU
// baseline (Merrill, Garland & Grimshaw's BFS, seed-003 §1.3, §1.6): a
// CTA computes every thread's output offset with a prefix sum in shared
// memory and reserves the CTA's whole output with ONE atomicAdd on the
// queue counter, instead of one atomic per element.
//
// The warp API has no shuffle or vote, so the scans are what GPUs did
// before shuffles (Merrill's kernels, CUB's WarpScanSmem): a warp-
// synchronous Kogge-Stone scan in a padded shared-memory row (log2(width)
// load-add-store steps, no barrier inside a warp), warp totals gathered in
// shared memory and scanned by warp 0 between two CTA barriers. Every value
// moves through the model's shared memory (latency, bank conflicts), so a
// wrong offset gives a wrong frontier, not just a wrong cycle count.
#pragma once

#include "tlmgpu/simt/warp.hpp"

namespace tlmgpu::graph_apps {

// Byte offsets of the scan's pieces in the CTA's shared window. Slots are 8
// bytes wide so one layout serves u32 and u64 scans.
struct CtaScanLayout {
  uint32_t width = 32, warps = 8; // lanes per warp, warps per CTA (<= width)

  static CtaScanLayout of(const Warp& w) { return {w.lane_count(), w.warps_per_cta()}; }
  static CtaScanLayout of(uint32_t block, uint32_t width) {
    return {width, (block + width - 1) / width};
  }
  // Each warp's row: `width` zero slots (the padding that lets lane i read
  // slot i - d without a branch), then `width` values.
  Addr warp_row(uint32_t warp) const { return Addr(warp) * 16 * width; }
  // The same padded row for the warp totals (scanned by warp 0).
  Addr totals() const { return Addr(warps) * 16 * width; }
  Addr base() const { return totals() + 16 * width; } // the reserved queue offset (u32)
  // Shared bytes the scan needs; callers put their own pieces after them.
  uint32_t bytes() const { return uint32_t(base() + 8); }
};

// Zeroes this warp's padding (warp 0 also the totals'). Every warp of the
// CTA runs it once before its first cta_scan; its own later loads are the
// only readers of what it writes, so no barrier is needed.
WarpTask cta_scan_init(Warp& w, CtaScanLayout s);

// Exclusive prefix sum of x over the CTA's threads in thread order; lanes
// outside m count 0. Every warp of the CTA must call it (two barriers).
// exclusive[i] = the sum over earlier threads, total = the CTA's sum.
// T: uint32_t or uint64_t (two packed u32 counts, summed at once).
template <class T>
WarpTask cta_scan(Warp& w, CtaScanLayout s, Lanes<T> x, Mask m, Lanes<T>& exclusive, T& total);

// Reserves `amount` consecutive slots of a global queue whose element
// counter is `counter`: thread 0 of the CTA does the one atomicAdd and
// broadcasts the old value through shared memory (a barrier). Every warp
// must call it with the same amount (the CTA total of a cta_scan); the
// barrier also ends the scan's use of the totals row.
WarpTask cta_reserve(Warp& w, CtaScanLayout s, Addr counter, uint32_t amount, uint32_t& base);

// Scan-based compaction: the lanes in `keep` append value to the queue
// `out` (element counter `counter`) in thread order, one cta_scan of the
// keep flags and one cta_reserve per CTA. Every warp of the CTA must call
// it.
WarpTask cta_append(Warp& w, CtaScanLayout s, Addr counter, Addr out, Lanes<uint32_t> value,
                    Mask keep);

} // namespace tlmgpu::graph_apps
