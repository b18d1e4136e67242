// The pieces of gups-tasks (gups_tasks.cpp) its task bodies, its real
// kernels and its serial reference share: the update values, where a value
// lands in the table, and the kernels a full GPU model runs.
#pragma once

#include "models/node/node_gpu_module.hpp"
#include "workloads/node_apps/task_kernel.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace tlmgpu::gups {

inline uint64_t value_of(uint64_t k) {
  uint64_t z = k + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The entry an update value goes to (seed-004 pitfall 2): value mod table
// (uniform, the HPCC intent) or, as the reference code does, value &
// (table - 1). On a table that is not a power of two the mask reaches only
// the entries whose bits lie within table - 1: at the paper's 167,772,160
// entries 40 % of them, in tiles 0, 1, 6 and 7 of 8.
struct Index {
  uint64_t table = 1;
  bool mask = false;

  uint64_t operator()(uint64_t x) const { return mask ? x & (table - 1) : x % table; }

  // How many entries of [0, n) an update can reach: with the mask, the
  // submasks of table - 1 below n, counted bit by bit from the top (where x
  // has a 0 and n a 1, x < n whatever x's lower bits; x can follow a 1 of
  // n only where table - 1 has that bit).
  uint64_t reachable_below(uint64_t n) const {
    n = std::min(n, table);
    if (!mask) return n;
    const uint64_t m = table - 1;
    uint64_t count = 0;
    for (int b = 63; b >= 0; --b) {
      const uint64_t bit = uint64_t(1) << b;
      if (!(n & bit)) continue;
      count += uint64_t(1) << std::popcount(m & (bit - 1));
      if (!(m & bit)) break;
    }
    return count;
  }
};

// The real kernels (gpu_model.kind = full), grid-stride over `count`
// updates: the generator stores value_of(lo + k) into the frontier; an
// update task scans the batch and xors (a red.xor: two updates of a batch
// may hit one entry) the values of its tile's entries [base, base + own).
inline WarpTask generate(Warp& w, Addr frontier, uint64_t lo, uint64_t count) {
  for (Lanes<uint64_t> k = w.global_thread_id();; k += Lanes<uint64_t>(w.grid_threads())) {
    const Mask m = w.active() & (k < Lanes<uint64_t>(count));
    if (m.empty()) co_return;
    co_await w.compute(10); // splitmix64
    const Lanes<uint64_t> x = (k + Lanes<uint64_t>(lo)).map([](uint64_t i) { return value_of(i); });
    co_await w.store<uint64_t>(address_of<uint64_t>(frontier, k), x, m);
  }
}

inline WarpTask update(Warp& w, Addr tile, Addr batch, uint64_t count, uint64_t base, uint64_t own,
                       Index index) {
  for (Lanes<uint64_t> k = w.global_thread_id();; k += Lanes<uint64_t>(w.grid_threads())) {
    Mask m = w.active() & (k < Lanes<uint64_t>(count));
    if (m.empty()) co_return;
    const Lanes<uint64_t> x = co_await w.load<uint64_t>(address_of<uint64_t>(batch, k), m);
    co_await w.compute(2);
    const Lanes<uint64_t> i = x.map([index](uint64_t v) { return index(v); });
    m &= (i >= Lanes<uint64_t>(base)) & (i < Lanes<uint64_t>(base + own));
    if (!m.empty())
      co_await w.red<uint64_t>(AtomicOp::Xor, address_of<uint64_t>(tile, i - Lanes<uint64_t>(base)),
                               x, m);
  }
}

} // namespace tlmgpu::gups
