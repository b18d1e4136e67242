// Busy intervals per 4-byte word of the L2 atomic unit, for LT (kernel-free).
//
// A read-modify-write keeps its word busy for atomic_latency cycles. In AT the
// unit is in order and calls come in time order, so the last op's finish per
// word (WordReadyTable) is all it needs. In LT, SMs call in an order unrelated
// to time: an SM running ahead books a word far in the future, and an op
// that arrives earlier but is called later must be able to use the word
// before that booking, else every SM is dragged to the time of the one
// furthest ahead (the histogram's bins). So each word books intervals
// (IntervalResource); words with nothing booked after the retire floor are
// dropped when the table is rebuilt, and their resources are reused, so the
// table stays as small as the set of words with ops in flight and does not
// allocate in steady state.
#pragma once

#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/types.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace tlmgpu {

class WordIntervals {
public:
  WordIntervals() : slots_(kInitialSlots) {}

  // Makes room for `n` new words. Call before a group of at() calls: a
  // rebuild inside the group could recycle a word the group already holds.
  void reserve(size_t n) {
    if ((used_ + n) * 2 > slots_.size()) rebuild();
  }

  // The word's resource, created on first use (after reserve()). References
  // stay valid until the next reserve().
  IntervalResource& at(Addr granule) {
    const size_t mask = slots_.size() - 1;
    size_t i = home(granule);
    for (; slots_[i].res != kEmpty; i = (i + 1) & mask)
      if (slots_[i].key == granule) {
        IntervalResource& r = pool_[slots_[i].res];
        // Keeps a busy word's spans few; skipped while they are few anyway,
        // which saves touching them (a cache miss per op on the hot path).
        if (r.spans() > 8) r.retire(floor_);
        return r;
      }
    uint32_t r;
    if (!free_.empty()) {
      r = free_.back();
      free_.pop_back();
    } else {
      r = uint32_t(pool_.size());
      pool_.emplace_back(Booking::TimeOrder);
    }
    slots_[i] = {granule, r};
    ++used_;
    return pool_[r];
  }

  // No op will arrive before `floor` any more: words idle from then on may go.
  void retire(Cycle floor) { floor_ = floor; }

  size_t size() const { return used_; }
  size_t capacity() const { return slots_.size(); }

private:
  static constexpr size_t kInitialSlots = 256;
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  struct Slot {
    Addr key = 0;
    uint32_t res = kEmpty; // index into pool_
  };
  size_t home(Addr key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
  }

  // Drops the words idle by the floor (their resources go to the free list,
  // keeping their storage) and grows only while live words fill a quarter.
  void rebuild() {
    size_t live = 0;
    for (const Slot& s : slots_)
      live += s.res != kEmpty && pool_[s.res].free_at() > floor_;
    size_t cap = slots_.size();
    while (live * 4 > cap)
      cap *= 2;
    std::vector<Slot> old(cap); // allocates only here, as WordReadyTable does
    old.swap(slots_);
    used_ = 0;
    const size_t mask = cap - 1;
    for (const Slot& s : old) {
      if (s.res == kEmpty) continue;
      IntervalResource& r = pool_[s.res];
      if (r.free_at() <= floor_) {
        r.reset();
        free_.push_back(s.res);
        continue;
      }
      r.retire(floor_);
      size_t i = home(s.key);
      while (slots_[i].res != kEmpty)
        i = (i + 1) & mask;
      slots_[i] = s;
      ++used_;
    }
  }

  std::vector<Slot> slots_;
  std::deque<IntervalResource> pool_; // stable references while it grows
  std::vector<uint32_t> free_;
  size_t used_ = 0;
  Cycle floor_ = 0;
};

} // namespace tlmgpu
