// Miss status holding registers: one entry per outstanding line, each holding
// the requests (waiters) that wait for that line's fill.
//
// AT mode frees an entry when the fill arrives (release()). LT mode has no
// fill event: the miss path computes when the line will be ready, stores it
// with set_ready(), and expire(now) frees the entries whose time has come.
// Entries live in an ordered map so every walk (expire) is deterministic.
#pragma once

#include "tlmgpu/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
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
  }

  // What add() would answer, without changing anything or counting.
  MshrOutcome probe(Addr line) const {
    auto it = table_.find(line);
    if (it != table_.end())
      return it->second.waiters.size() < max_merge_ ? MshrOutcome::Merged : MshrOutcome::MergeFull;
    return table_.size() < entries_ ? MshrOutcome::Allocated : MshrOutcome::NoEntry;
  }

  // On a refusal the waiter is dropped; the caller keeps the request and retries.
  MshrOutcome add(Addr line, Waiter w) {
    const MshrOutcome outcome = probe(line);
    switch (outcome) {
    case MshrOutcome::Allocated:
      table_[line].waiters.push_back(std::move(w));
      ++allocated_;
      max_occupancy_ = std::max(max_occupancy_, table_.size());
      break;
    case MshrOutcome::Merged:
      table_[line].waiters.push_back(std::move(w));
      ++merged_;
      break;
    case MshrOutcome::NoEntry:
      ++refused_full_;
      break;
    case MshrOutcome::MergeFull:
      ++refused_merge_;
      break;
    }
    return outcome;
  }

  bool pending(Addr line) const { return table_.count(line) != 0; }
  size_t waiters_of(Addr line) const {
    auto it = table_.find(line);
    return it == table_.end() ? 0 : it->second.waiters.size();
  }

  // Frees the entry and returns its waiters in arrival order. A line that is
  // not pending yields nothing: in LT mode expire() may have freed it first.
  std::vector<Waiter> release(Addr line) {
    auto it = table_.find(line);
    if (it == table_.end()) return {};
    std::vector<Waiter> out = std::move(it->second.waiters);
    table_.erase(it);
    return out;
  }

  // LT mode: the cycle the line's fill completes. Setting it on a line that
  // is not pending is a caller bug, hence the throw.
  void set_ready(Addr line, Cycle ready) {
    auto it = table_.find(line);
    if (it == table_.end()) throw std::out_of_range("MshrTable::set_ready on a line not pending");
    it->second.ready = ready;
  }
  std::optional<Cycle> ready_of(Addr line) const {
    auto it = table_.find(line);
    return it == table_.end() ? std::nullopt : it->second.ready;
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
    for (auto it = table_.begin(); it != table_.end();) {
      if (it->second.ready && *it->second.ready <= now) {
        out.push_back({it->first, *it->second.ready, std::move(it->second.waiters)});
        it = table_.erase(it);
      } else {
        ++it;
      }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Expired& a, const Expired& b) { return a.ready < b.ready; });
    return out;
  }

  size_t size() const { return table_.size(); } // occupied entries
  size_t occupancy() const { return table_.size(); }
  size_t capacity() const { return entries_; }
  size_t max_merge() const { return max_merge_; }
  bool full() const { return table_.size() >= entries_; }
  bool empty() const { return table_.empty(); }
  size_t max_occupancy() const { return max_occupancy_; }

  uint64_t allocated() const { return allocated_; }
  uint64_t merged() const { return merged_; }
  uint64_t refused_full() const { return refused_full_; }
  uint64_t refused_merge() const { return refused_merge_; }

private:
  struct Entry {
    std::vector<Waiter> waiters;
    std::optional<Cycle> ready;
  };
  size_t entries_, max_merge_;
  std::map<Addr, Entry> table_;
  size_t max_occupancy_ = 0;
  uint64_t allocated_ = 0, merged_ = 0, refused_full_ = 0, refused_merge_ = 0;
};

} // namespace tlmgpu
