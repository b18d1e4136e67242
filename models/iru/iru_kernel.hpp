// The kernel side of the IRU (thesis Fig. 5.7, seed-003 §3.2): load_iru in
// a warp program. Kernel-free: a load_iru is plain loads of a partition's
// device window (models/iru/README.md), so the SM needs no new request kind.
//
//   IruDevice d = IruControl::of(ctx)->device();   // host: handed to the kernel
//   ...
//   IruLoad got;                                   // in the warp program:
//   co_await load_iru(w, d, got, kIruSecondary);   //   load_iru(edge, weight)
//   co_await w.red<float>(AtomicOp::Add, address_of<float>(label, got.index),
//                         got.secondary_as<float>(), got.active);
#pragma once

#include "models/iru/iru_types.hpp"
#include "tlmgpu/simt/warp.hpp"

namespace tlmgpu {

// Where a kernel sends its load_iru requests.
struct IruDevice {
  Addr window = 0; // partition 0's device window; partition p's is p * window_bytes on
  uint32_t window_bytes = 0, partitions = 0, line_bytes = 128;
};

// What load_iru gives the warp's lanes.
struct IruLoad {
  Lanes<uint32_t> index, secondary, position;
  Mask active; // lanes that got an element (load_iru returned true)
  template <class T>
  Lanes<T> secondary_as() const {
    return secondary.map([](uint32_t b) { return from_bits<T>(b); });
  }
};

// Which of the reply's arrays to fetch besides the indices (bits).
enum IruWant : unsigned { kIruIndex = 0, kIruSecondary = 1, kIruPosition = 2 };

// load_iru(index [, secondary] [, position]). Every lane of a full 32-lane
// warp takes part: the reply hands out one element per lane, and a lane
// that gets none is inactive (the kernel launches one thread per element
// and needs no `pos < n` test). Warps spread their requests over the
// partitions by global warp id. Throws std::invalid_argument for a
// partial warp (make the block size a multiple of 32).
WarpTask load_iru(Warp& w, const IruDevice& d, IruLoad& out, unsigned want = kIruIndex);

} // namespace tlmgpu
