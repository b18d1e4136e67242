// Miss status holding registers: one entry per outstanding line, each holding
// the requests (waiters) that wait for that line's fill.
//
// AT mode frees an entry when the fill arrives (release()). LT mode has no
// fill event: the miss path computes when the line will be ready, stores it
// with set_ready(), and expire(now) frees the entries whose time has come.
//
// The table sits on every L1/L2 access, so it allocates nothing per miss once
// warm: entries live in a pool that grows up to the capacity and is reused
// after release (a freed entry keeps its waiter vector's storage unless the
// waiters were handed out), and lines are found through an open-addressing
// index (linear probing, deletion by backward shift, so no tombstones pile
// up). Nothing observable depends on where an entry sits: lookups are by line
// and expire() sorts what it frees by (ready, line).
#pragma once

#include "tlmgpu/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tlmgpu {

enum class MshrOutcome {
  Allocated, // first waiter: a new entry, the caller must send the miss down
  Merged,    // line already pending: the waiter rides on the outstanding miss
  NoEntry,   // table full and the line is not pending: stall ("mshr_full")
  MergeFull, // line pending but its entry holds max_merge waiters: stall
};

template <class Waiter>
class MshrTable {
public:
  // `max_merge` counts every waiter of an entry, the allocating one included
  // (as GPGPU-Sim's mshr_table does), so max_merge = 1 means no merging.
  MshrTable(size_t entries, size_t max_merge) : entries_(entries), max_merge_(max_merge) {
    if (entries == 0 || max_merge == 0)
      throw std::invalid_argument("MshrTable needs entries >= 1 and max_merge >= 1");
    if (entries > kNoSlot) throw std::invalid_argument("MshrTable: too many entries");
    // Start small and grow with the occupancy: a 65536-entry table that never
    // holds more than a few lines should not cost megabytes per cache.
    index_.assign(kMinBuckets, Bucket{});
  }

  // What add() would answer, without changing anything or counting.
  MshrOutcome probe(Addr line) const {
    if (const Entry* e = find(line))
      return e->waiters.size() < max_merge_ ? MshrOutcome::Merged : MshrOutcome::MergeFull;
    return live_.size() < entries_ ? MshrOutcome::Allocated : MshrOutcome::NoEntry;
  }

  // On a refusal the waiter is dropped; the caller keeps the request and retries.
  MshrOutcome add(Addr line, Waiter w) {
    const size_t b = bucket_of(line);
    if (b != kNone) {
      Entry& e = slots_[index_[b].slot];
      if (e.waiters.size() >= max_merge_) return ++refused_merge_, MshrOutcome::MergeFull;
      e.waiters.push_back(std::move(w));
      ++merged_;
      return MshrOutcome::Merged;
    }
    if (live_.size() >= entries_) return ++refused_full_, MshrOutcome::NoEntry;
    Entry& e = slots_[allocate(line)];
    e.waiters.push_back(std::move(w));
    ++allocated_;
    max_occupancy_ = std::max(max_occupancy_, live_.size());
    return MshrOutcome::Allocated;
  }

  bool pending(Addr line) const { return find(line) != nullptr; }
  size_t waiters_of(Addr line) const {
    const Entry* e = find(line);
    return e ? e->waiters.size() : 0;
  }

  // Frees the entry and returns its waiters in arrival order. A line that is
  // not pending yields nothing: in LT mode expire() may have freed it first.
  std::vector<Waiter> release(Addr line) {
    const size_t b = bucket_of(line);
    if (b == kNone) return {};
    const uint32_t s = index_[b].slot;
    std::vector<Waiter> out = std::move(slots_[s].waiters);
    free_entry(b, s);
    return out;
  }

  // LT mode: the cycle the line's fill completes. Setting it on a line that
  // is not pending is a caller bug, hence the throw.
  void set_ready(Addr line, Cycle ready) {
    Entry* e = find(line);
    if (!e) throw std::out_of_range("MshrTable::set_ready on a line not pending");
    e->ready = ready;
    earliest_ready_ = std::min(earliest_ready_, ready);
  }
  std::optional<Cycle> ready_of(Addr line) const {
    const Entry* e = find(line);
    return e ? e->ready : std::nullopt;
  }

  struct Expired {
    Addr line;
    Cycle ready;
    std::vector<Waiter> waiters;
  };
  // Frees every entry with ready <= now and returns them ordered by (ready,
  // line), i.e. in the order their fills would have arrived. Entries without a
  // ready cycle stay (they wait for release()).
  std::vector<Expired> expire(Cycle now) {
    std::vector<Expired> out;
    // LT calls this on every access; most calls free nothing, and the lower
    // bound on the ready cycles answers them without walking the entries.
    if (now < earliest_ready_) return out;
    Cycle earliest = kNever;
    for (size_t i = 0; i < live_.size();) {
      const uint32_t s = live_[i];
      Entry& e = slots_[s];
      if (e.ready && *e.ready <= now) {
        out.push_back({e.line, *e.ready, std::move(e.waiters)});
        free_entry(bucket_of(e.line), s); // moves the last live entry to i
      } else {
        if (e.ready) earliest = std::min(earliest, *e.ready);
        ++i;
      }
    }
    earliest_ready_ = earliest;
    // Lines are unique, so (ready, line) is a total order: the result does not
    // depend on where the entries sat.
    std::sort(out.begin(), out.end(), [](const Expired& a, const Expired& b) {
      return a.ready != b.ready ? a.ready < b.ready : a.line < b.line;
    });
    return out;
  }

  // expire() for a caller that does not want the freed entries (LT: nothing
  // waits in them): no result vector, and each entry keeps its waiter
  // vector's storage for its next line.
  void drop_expired(Cycle now) {
    if (now < earliest_ready_) return;
    Cycle earliest = kNever;
    for (size_t i = 0; i < live_.size();) {
      Entry& e = slots_[live_[i]];
      if (e.ready && *e.ready <= now) {
        free_entry(bucket_of(e.line), live_[i]); // moves the last live entry to i
      } else {
        if (e.ready) earliest = std::min(earliest, *e.ready);
        ++i;
      }
    }
    earliest_ready_ = earliest;
  }

  // LT: the first ready cycle among the live entries (none if no entry has
  // one). A lower bound in general; exact right after drop_expired().
  std::optional<Cycle> earliest_ready() const {
    if (earliest_ready_ == kNever) return std::nullopt;
    return earliest_ready_;
  }
  size_t size() const { return live_.size(); } // occupied entries
  size_t occupancy() const { return live_.size(); }
  size_t capacity() const { return entries_; }
  size_t max_merge() const { return max_merge_; }
  bool full() const { return live_.size() >= entries_; }
  bool empty() const { return live_.empty(); }
  size_t max_occupancy() const { return max_occupancy_; }

  uint64_t allocated() const { return allocated_; }
  uint64_t merged() const { return merged_; }
  uint64_t refused_full() const { return refused_full_; }
  uint64_t refused_merge() const { return refused_merge_; }

private:
  static constexpr uint32_t kNoSlot = std::numeric_limits<uint32_t>::max();
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();
  static constexpr size_t kMinBuckets = 16; // a power of two
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

  struct Entry {
    Addr line = 0;
    std::vector<Waiter> waiters;
    std::optional<Cycle> ready;
    uint32_t live_pos = 0; // where this entry sits in live_
  };
  // The line is kept in the bucket so a probe compares without touching the
  // entry.
  struct Bucket {
    Addr line = 0;
    uint32_t slot = kNoSlot;
  };

  // Fibonacci hashing: line addresses are multiples of the line size, so
  // their low bits carry nothing; the multiply spreads the high ones.
  size_t home(Addr line) const {
    return static_cast<size_t>((line * 0x9E3779B97F4A7C15ull) >> 32) & (index_.size() - 1);
  }

  size_t bucket_of(Addr line) const {
    const size_t mask = index_.size() - 1;
    for (size_t b = home(line);; b = (b + 1) & mask) {
      if (index_[b].slot == kNoSlot) return kNone; // the load stays <= 1/2: an empty one exists
      if (index_[b].line == line) return b;
    }
  }
  const Entry* find(Addr line) const {
    const size_t b = bucket_of(line);
    return b == kNone ? nullptr : &slots_[index_[b].slot];
  }
  Entry* find(Addr line) {
    const size_t b = bucket_of(line);
    return b == kNone ? nullptr : &slots_[index_[b].slot];
  }

  void insert_bucket(Addr line, uint32_t s) {
    const size_t mask = index_.size() - 1;
    size_t b = home(line);
    while (index_[b].slot != kNoSlot)
      b = (b + 1) & mask;
    index_[b] = Bucket{line, s};
  }

  // Takes a free entry (or a new one, up to the capacity) for `line`, which
  // the caller knows is not pending.
  uint32_t allocate(Addr line) {
    if (2 * (live_.size() + 1) > index_.size()) grow_index();
    uint32_t s;
    if (!free_.empty()) {
      s = free_.back();
      free_.pop_back();
    } else {
      s = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Entry& e = slots_[s];
    e.line = line;
    e.waiters.clear(); // a moved-from vector is valid but unspecified
    e.ready.reset();
    e.live_pos = static_cast<uint32_t>(live_.size());
    live_.push_back(s);
    insert_bucket(line, s);
    return s;
  }

  void grow_index() {
    index_.assign(index_.size() * 2, Bucket{});
    for (uint32_t s : live_)
      insert_bucket(slots_[s].line, s);
  }

  // Empties bucket `b` (holding entry `s`) and returns `s` to the free list.
  void free_entry(size_t b, uint32_t s) {
    // Backward-shift deletion: pull later members of the probe run into the
    // hole unless that would move them before their home bucket.
    const size_t mask = index_.size() - 1;
    size_t hole = b;
    for (size_t j = (b + 1) & mask; index_[j].slot != kNoSlot; j = (j + 1) & mask) {
      const size_t k = home(index_[j].line);
      const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
      if (stays) continue;
      index_[hole] = index_[j];
      hole = j;
    }
    index_[hole] = Bucket{};
    const uint32_t pos = slots_[s].live_pos;
    const uint32_t last = live_.back();
    live_[pos] = last;
    slots_[last].live_pos = pos;
    live_.pop_back();
    free_.push_back(s);
  }

  size_t entries_, max_merge_;
  std::vector<Entry> slots_;      // entry storage, grows up to entries_, never shrinks
  std::vector<uint32_t> free_;    // released entries, reused first
  std::vector<uint32_t> live_;    // the occupied entries, in no particular order
  std::vector<Bucket> index_;     // line -> entry, a power of two >= 2 x live_
  Cycle earliest_ready_ = kNever; // <= every pending ready cycle
  size_t max_occupancy_ = 0;
  uint64_t allocated_ = 0, merged_ = 0, refused_full_ = 0, refused_merge_ = 0;
};

} // namespace tlmgpu
