// The sRSP L1's bookkeeping structures, kernel-free (seed-002 §2.1, §2.4):
// the sFIFO of locally modified lines, the LR-TBL of local-release markers
// and the PA-TBL of promoted acquires. They hold addresses and sequence
// numbers only; the line data lives in ScopedL1 (scoped_l1.hpp).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tlmgpu::scoped {

using Addr = uint64_t;

// sFIFO (QuickRelease): line addresses in modification order. Entries carry a
// 64-bit sequence number that never repeats (P6), so a marker cannot alias a
// reused slot. A line gets one entry when it is first dirtied (`in_fifo`);
// a release always pushes a fresh entry so its marker sits at the release's
// position.
class SFifo {
public:
  struct Entry {
    Addr line;
    uint64_t seq;
  };
  explicit SFifo(uint32_t capacity) : capacity_(capacity) {}

  uint32_t capacity() const { return capacity_; }
  size_t size() const { return q_.size(); }
  bool full() const { return q_.size() >= capacity_; }
  bool empty() const { return q_.empty(); }
  bool holds(Addr line) const { return count_.count(line) != 0; }
  const Entry& head() const { return q_.front(); }

  // Appends `line` and returns its sequence number. The caller pops the head
  // first when full() (it owes that line's write-back).
  uint64_t push(Addr line);
  Entry pop();
  // The slot a sequence number occupies in a ring of capacity() entries:
  // what a hardware pointer would hold (used only by the slot-pointer
  // mutation, which shows why P6 matters).
  uint64_t slot(uint64_t seq) const { return seq % capacity_; }

private:
  uint32_t capacity_;
  std::deque<Entry> q_;
  std::unordered_map<Addr, uint32_t> count_; // live entries per line
  uint64_t next_seq_ = 0;
};

// LR-TBL: key -> sequence number of the sFIFO entry of the latest wg-scope
// release to that key. An entry leaves with its sFIFO entry (forget), so the
// table never holds more entries than the sFIFO.
class LrTable {
public:
  explicit LrTable(uint32_t capacity) : capacity_(capacity) {}
  void upsert(Addr key, uint64_t seq);
  std::optional<uint64_t> lookup(Addr key) const;
  // The sFIFO entry `seq` left: drop the key whose marker it was.
  void forget(uint64_t seq);
  void clear() {
    by_key_.clear();
    by_seq_.clear();
  }
  size_t size() const { return by_key_.size(); }
  uint32_t capacity() const { return capacity_; }

private:
  uint32_t capacity_;
  std::unordered_map<Addr, uint64_t> by_key_;
  std::unordered_map<uint64_t, Addr> by_seq_;
};

// PA-TBL: keys whose next wg acquire must be promoted to cmp scope. When an
// insert finds it full the owner either invalidates at once (eager: the
// caller does it, then inserts) or sets `overflowed`, after which every wg
// acquire is promoted until the next full invalidation clears it (lazy).
class PaTable {
public:
  explicit PaTable(uint32_t capacity) : capacity_(capacity) {}
  bool full() const { return keys_.size() >= capacity_; }
  // False if full (nothing inserted).
  bool insert(Addr key);
  bool hit(Addr key) const { return overflowed_ || keys_.count(key) != 0; }
  void set_overflowed() { overflowed_ = true; }
  bool overflowed() const { return overflowed_; }
  void clear() {
    keys_.clear();
    overflowed_ = false;
  }
  size_t size() const { return keys_.size(); }

private:
  uint32_t capacity_;
  std::unordered_set<Addr> keys_;
  bool overflowed_ = false;
};

// L2's per-line remote lock (seed-002 §2.5, P2, P3, P7). While a line is
// locked, L1 reads, fills and atomics from anyone but the holder are parked
// (the caller waits and retries; write-backs always pass). Lock requests for
// one line are granted in arrival order.
class L2LineLock {
public:
  // Asks for `line` on behalf of `who`. True if `who` holds it now; else
  // `who` is queued and will hold it after the holders before it unlock.
  bool request(Addr line, uint32_t who);
  bool holds(Addr line, uint32_t who) const;
  // May `who` read or update `line` now?
  bool admits(Addr line, uint32_t who) const;
  // The holder lets go; the next queued requester (if any) becomes holder.
  void unlock(Addr line, uint32_t who);
  bool locked(Addr line) const { return holders_.count(line) != 0; }
  size_t locked_lines() const { return holders_.size(); }

private:
  std::unordered_map<Addr, uint32_t> holders_;
  std::unordered_map<Addr, std::deque<uint32_t>> queued_;
};

} // namespace tlmgpu::scoped
