// A map from 64-bit keys to 32-bit values (not ~0u) for the hot lookups of
// AT: open addressing with linear probing and a multiplicative hash, no node
// per key. The calendar's pending time -> bucket (ports.hpp; std::unordered_map
// cost a node per new time and ~55 instructions per lookup, 1.5 % of AT's
// instructions) and a wide cache set's line -> way (cache_array.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlmgpu {

class U64Index {
public:
  static constexpr uint32_t kNone = ~0u;

  // The value of `key`, or kNone (then `slot` is where it would go).
  uint32_t find(uint64_t key, size_t& slot) const {
    for (slot = home(key);; slot = (slot + 1) & mask_)
      if (table_[slot].value == kNone || table_[slot].key == key) return table_[slot].value;
  }
  // Adds `key` at the slot find() gave (which must have returned kNone).
  void insert(size_t slot, uint64_t key, uint32_t value) {
    table_[slot] = Entry{key, value};
    if (++used_ * 2 > table_.size()) grow();
  }
  // Removes `key` (present): later entries of its probe run move back, so
  // find() never has to skip holes.
  void erase(uint64_t key) {
    size_t i;
    find(key, i);
    for (size_t j = (i + 1) & mask_; table_[j].value != kNone; j = (j + 1) & mask_) {
      const size_t h = home(table_[j].key);
      // The entry at j may fill the hole at i unless its home lies in (i, j].
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (!stays) {
        table_[i] = table_[j];
        i = j;
      }
    }
    table_[i].value = kNone;
    --used_;
  }
  size_t size() const { return used_; }

private:
  struct Entry {
    uint64_t key = 0;
    uint32_t value = kNone;
  };
  size_t home(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  void grow() {
    std::vector<Entry> old(table_.size() * 2);
    old.swap(table_);
    mask_ = table_.size() - 1;
    --shift_;
    for (const Entry& e : old)
      if (e.value != kNone) {
        size_t s;
        find(e.key, s);
        table_[s] = e;
      }
  }
  std::vector<Entry> table_ = std::vector<Entry>(64);
  size_t mask_ = 63;
  unsigned shift_ = 64 - 6;
  size_t used_ = 0;
};

} // namespace tlmgpu
