// One L2 slice, kernel-free (style rule 1): tags, real data and the atomic
// unit. The L2 module owns sockets, queues, MSHRs and the clock and drives
// this core; see README.md for the behaviour.
//
// Sectored, write-back, allocate-on-fill for loads, write-allocate without
// fetch for stores (lazy fetch on read: a store only validates the bytes it
// writes, and a later read of a partially valid sector fetches it, the fill
// leaving the stored bytes alone). Atomics and reductions are performed here.
//
// Atomic unit timing has two bookings (set_booking). CallOrder (AT): calls
// must come in non-decreasing `now` (L2 cycles); the unit is in order, a
// busy-until resource served in call order. TimeOrder (LT): calls come in any
// order (temporal decoupling); unit slots and words book intervals, so an op
// is served in the order of its arrival time, not of its call.
#pragma once

#include "models/l2/l2_spec.hpp"
#include "models/l2/word_intervals.hpp"
#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/timing.hpp"
#include "tlmgpu/types.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tlmgpu {

struct L2Outcome {
  bool hit = false;
  uint32_t fetch_sectors = 0; // miss: sectors the caller fetches, then fill() + access() again
  Cycle extra_cycles = 0;     // beyond spec.latency (the atomic unit)
  std::optional<Writeback> writeback;
};

// Per-4-byte-granule "ready" cycle of the last atomic issued to it. Open
// addressing, rebuilt (dropping finished entries) when half full, so it stays
// as small as the set of words with an atomic still in flight and does not
// allocate in steady state.
class WordReadyTable {
public:
  WordReadyTable() : slots_(kInitialSlots) {}
  Cycle get(Addr granule) const;
  void set(Addr granule, Cycle ready, Cycle now);
  size_t size() const { return used_; }
  size_t capacity() const { return slots_.size(); }

private:
  static constexpr size_t kInitialSlots = 256;
  struct Slot {
    Addr key = 0;
    Cycle ready = 0; // 0 = empty
  };
  size_t home(Addr key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
  }
  void rebuild(Cycle now);
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

class L2Core {
public:
  // `spec` must be derived (sets, sectors_per_line); it is copied.
  L2Core(const L2Spec& spec, StatGroup& stats);
  // Functional mode: no atomic-unit timing (and no same-word wait counting).
  void set_timed(bool timed) { timed_ = timed; }
  // Before the first access; see the top of this file.
  void set_booking(Booking b);
  // TimeOrder: no access will come with `now` before `floor` any more.
  void retire(Cycle floor);

  // `data` is one line (line_bytes) indexed by offset in the line; loads and
  // atomics read/write it, stores take it with `byte_enable` (line-sized,
  // nonzero = write; null = every byte of a.sector_mask). `replay` marks the
  // second call after a miss's fill so the request is counted once.
  L2Outcome access(GpuAccess& a, Addr line, uint8_t* data, const uint8_t* byte_enable, Cycle now,
                   bool replay = false);

  // Installs `sectors` of `data` (line-sized) for `line`, allocating if
  // absent. Bytes already valid are kept: stores that arrived while the
  // fill was in flight win. Returns the dirty victim's bytes, if any.
  std::optional<Writeback> fill(Addr line, uint32_t sectors, const uint8_t* data);

  // Host access: the caller fills dst from DRAM first; valid cached bytes are
  // overlaid. debug_write updates the valid cached bytes (the caller also
  // writes DRAM). Ranges may span lines.
  void debug_overlay(Addr addr, uint8_t* dst, size_t n) const;
  void debug_write(Addr addr, const uint8_t* src, size_t n);

  // Every dirty line's dirty bytes; the lines stay valid and become clean.
  std::vector<Writeback> flush_all();

  // hLRC (models/hlrc). An ownership request: like an atomic, but it needs
  // the whole line valid (a miss fetches every missing sector); on a hit the
  // lanes are performed here (exact old values) and the whole line, updated,
  // is copied into `data` for the new owner.
  L2Outcome grant(GpuAccess& a, Addr line, uint8_t* data, Cycle now, bool replay = false);
  // An owner's write-back (recall or release): its dirty bytes become valid
  // and dirty here, allocating the line if absent. Returns the dirty victim.
  std::optional<Writeback> absorb(const Writeback& wb);

  const L2Spec& spec() const { return spec_; }
  const CacheArray& array() const { return array_; }
  // Sets by the line's number inside this slice (CacheArray::index_by_partition).
  void index_sets_by_partition(uint32_t chunk_bytes, uint32_t slices) {
    array_.index_by_partition(chunk_bytes, slices);
  }
  const WordReadyTable& word_ready() const { return word_ready_; }

private:
  L2Outcome load(GpuAccess& a, Addr line, uint8_t* data, bool replay);
  L2Outcome store(GpuAccess& a, Addr line, const uint8_t* data, const uint8_t* be, bool replay);
  L2Outcome rmw(GpuAccess& a, Addr line, bool replay, Cycle now);
  // Cycle the atomic unit finishes one lane op on bytes [addr, addr+size).
  Cycle schedule_lane_op(Addr addr, unsigned size, Cycle now);
  Cycle schedule_lane_op_lt(Addr addr, unsigned size, Cycle now); // TimeOrder
  CacheLine& install(Addr line, std::optional<Writeback>& wb);

  L2Spec spec_;
  CacheArray array_;
  IntervalResource alu_{Booking::CallOrder}; // in ticks of 1/atomics_per_cycle cycle
  WordReadyTable word_ready_;                // CallOrder: last op's finish per word
  WordIntervals word_busy_;                  // TimeOrder: busy intervals per word

  Counter &loads_, &load_hits_, &load_misses_, &stores_, &store_hits_, &atomics_, &atomic_hits_,
      &atomic_misses_, &atomic_lane_ops_, &same_word_serializations_, &same_word_wait_cycles_,
      &atomic_wait_cycles_, &fills_, &writebacks_, &evictions_;
  bool timed_ = true;
  bool time_order_ = false;
};

} // namespace tlmgpu
