// The reordering hash (seed-003 §3.5, thesis §5.2.3, Fig. 5.5): one logical
// direct-mapped hash keyed by the memory block target[index] falls in,
// split over the partitions, each partition's slice banked. Kernel-free.
//
//   index ──► block = (target + index * elem_bytes) / line
//               │ h = mix(block)                       [A] the thesis gives no hash
//               ├─ partition = h % partitions          (who owns the set: the ring)
//               ├─ set = (h / partitions) % sets_per_partition
//               └─ bank = set % banks
//
// A set holds one entry of up to `slots` elements, appended in arrival
// order. The tag (block of the first insert) is advisory (notes P17): an
// element of another block is appended anyway and counted as a conflict,
// which costs coalescing, not correctness.
#pragma once

#include "models/iru/iru_types.hpp"

#include <cstdint>
#include <deque>
#include <vector>

namespace tlmgpu {

class IruRouting {
public:
  IruRouting(uint32_t partitions, uint32_t sets_per_partition, uint32_t banks, uint32_t line_bytes);
  void set_target(Addr target, uint32_t elem_bytes) { target_ = target, elem_ = elem_bytes; }

  struct Place {
    uint64_t block;
    uint32_t partition, set, bank;
  };
  uint64_t block_of(uint32_t index) const { return (target_ + uint64_t(index) * elem_) / line_; }
  Place place(uint32_t index) const;
  // Hops on the unidirectional ring (partition i sends to i + 1) from `from` to `to`.
  uint32_t hops(uint32_t from, uint32_t to) const {
    return (to + partitions_ - from) % partitions_;
  }
  uint32_t partitions() const { return partitions_; }
  uint32_t sets_per_partition() const { return sets_; }

private:
  uint32_t partitions_, sets_, banks_, line_;
  Addr target_ = 0;
  uint32_t elem_ = 4;
};

// One partition's slice of the hash, with the merge ALU.
class IruHashSlice {
public:
  // `residue`: IDs a set remembers after replying them (0: none).
  IruHashSlice(uint32_t sets, uint32_t slots, uint32_t residue = 0);
  void clear(); // the elements; the residue stays (remember(false) drops it)
  // The ISCU's persistent unique filter (notes P20): while on, the IDs a set
  // replies go into its residue (the last `residue` of them), and an element
  // whose index is there is dropped (Remembered). Off: the residue is
  // forgotten and not consulted.
  void remember(bool on);

  enum class Insert : uint8_t { Added, Merged, Remembered, Full };
  // Appends `e` to set `set` (block `block` is only the advisory tag). With
  // a merge op, an element of equal index already in the set absorbs it
  // (Merged) even when the set is full; otherwise a full set refuses it.
  Insert insert(uint32_t set, uint64_t block, const IruElement& e, IruMerge m);

  uint32_t size(uint32_t set) const { return uint32_t(sets_[set].e.size()); }
  uint64_t held() const { return held_; }
  // The set that became full first and still is, or -1.
  int oldest_full();
  // Moves up to `k` elements of `set` (oldest first) to `out`.
  uint32_t take(uint32_t set, uint32_t k, std::vector<IruElement>& out);
  // Moves up to `k` elements to `out`, fullest sets first (best coalesced),
  // whole sets where they fit (first-fit decreasing), then part of the
  // largest left: a set is split between two replies only when it must be.
  uint32_t collect(uint32_t k, std::vector<IruElement>& out);
  uint64_t conflicts() const { return conflicts_; }

private:
  struct Set {
    std::vector<IruElement> e;
    uint64_t tag = 0;
    std::vector<uint32_t> residue; // replied IDs, a ring of residue_ entries
    uint32_t next = 0;             // the ring's oldest entry (overwritten next)
  };
  std::vector<Set> sets_;
  uint32_t slots_, residue_;
  bool remember_ = false;
  uint64_t held_ = 0, conflicts_ = 0;
  std::deque<uint32_t> full_; // sets in the order they became full (stale entries skipped)
};

} // namespace tlmgpu
