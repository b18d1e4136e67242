// hLRC ownership registry of one L2 slice (kernel-free, style rule 1): which
// SM owns each line, and from which L2 cycle the line's data is back at the
// slice after the last transfer (grant, recall or release). See README.md.
//
//   unowned ──grant(sm)──► owned(sm) ──recall(back)──────► unowned (ready = back)
//      ▲                      │      └─release(sm, back)─► unowned (ready = back)
//      └──── grant(sm') ◄─────┘ only after a recall: one owner at a time
//
// `ready` is what makes requests queue behind a pending transfer: a request
// that finds the line busy starts no earlier than ready(line). A granted
// line's ready is the cycle the grant reaches the new owner, so a recall
// cannot overtake the grant it revokes.
#pragma once

#include "tlmgpu/types.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>

namespace tlmgpu {

class OwnershipRegistry {
public:
  std::optional<uint16_t> owner(Addr line) const;
  // L2 cycle from which the line's data (or its owner) can serve a new
  // request; 0 if no transfer is pending.
  Cycle ready(Addr line) const;

  // Records `sm` as the owner; `owner_ready` = cycle the grant reaches it.
  // Throws std::logic_error if the line is owned (recall it first).
  void grant(Addr line, uint16_t sm, Cycle owner_ready);
  // The home took the line back from its owner; its data is at the slice
  // from cycle `back`. Returns the previous owner. Throws if unowned.
  uint16_t recall(Addr line, Cycle back);
  // The owner gave the line up (capacity eviction, kernel end, fence); its
  // data is at the slice from `back`. Throws if `sm` is not the owner.
  void release(Addr line, uint16_t sm, Cycle back);

  // Forgets unowned lines whose transfer completed by `now` (they carry no
  // information); called now and then so the table stays as small as the set
  // of owned and in-transfer lines. Iteration order does not matter here.
  void prune(Cycle now);

  size_t owned_lines() const { return owned_; }
  size_t entries() const { return map_.size(); }

private:
  struct Entry {
    bool owned = false;
    uint16_t owner = 0;
    Cycle ready = 0;
  };
  std::unordered_map<Addr, Entry> map_;
  size_t owned_ = 0;
};

} // namespace tlmgpu
