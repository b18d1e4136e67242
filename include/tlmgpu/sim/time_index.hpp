// The calendar's index from a pending time to its bucket (ports.hpp): open
// addressing with linear probing and a multiplicative hash. Every scheduled
// step looks its time up here; std::unordered_map cost a node per new time
// and ~55 instructions per lookup (issue 13: 1.5 % of AT's instructions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlmgpu {

class TimeIndex {
public:
  static constexpr uint32_t kNone = ~0u;

  // The bucket of `when`, or kNone (then `slot` is where it would go).
  uint32_t find(uint64_t when, size_t& slot) const {
    for (slot = home(when);; slot = (slot + 1) & mask_)
      if (table_[slot].bucket == kNone || table_[slot].when == when) return table_[slot].bucket;
  }
  // Adds `when` at the slot find() gave (which must have returned kNone).
  void insert(size_t slot, uint64_t when, uint32_t bucket) {
    table_[slot] = Entry{when, bucket};
    if (++used_ * 2 > table_.size()) grow();
  }
  // Removes `when` (present): later entries of its probe run move back, so
  // find() never has to skip holes.
  void erase(uint64_t when) {
    size_t i;
    find(when, i);
    for (size_t j = (i + 1) & mask_; table_[j].bucket != kNone; j = (j + 1) & mask_) {
      const size_t h = home(table_[j].when);
      // The entry at j may fill the hole at i unless its home lies in (i, j].
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (!stays) {
        table_[i] = table_[j];
        i = j;
      }
    }
    table_[i].bucket = kNone;
    --used_;
  }
  size_t size() const { return used_; }

private:
  struct Entry {
    uint64_t when = 0;
    uint32_t bucket = kNone;
  };
  size_t home(uint64_t when) const { return size_t((when * 0x9E3779B97F4A7C15ull) >> shift_); }
  void grow() {
    std::vector<Entry> old(table_.size() * 2);
    old.swap(table_);
    mask_ = table_.size() - 1;
    --shift_;
    for (const Entry& e : old)
      if (e.bucket != kNone) {
        size_t s;
        find(e.when, s);
        table_[s] = e;
      }
  }
  std::vector<Entry> table_ = std::vector<Entry>(64);
  size_t mask_ = 63;
  unsigned shift_ = 64 - 6;
  size_t used_ = 0;
};

} // namespace tlmgpu
