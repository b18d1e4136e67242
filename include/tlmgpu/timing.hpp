// Kernel-free timing primitives, in cycles of the owning block's clock
// (house style rules 8 and 9). Cores use them to compute `{result, cycles}`
// and to expose why time went where it went; modules turn cycles into sc_time.
#pragma once

#include "tlmgpu/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace tlmgpu {

// A FIFO with a fixed capacity and a refusal path. Entries are reachable by
// index (0 = oldest) and removable from the middle, so a scheduler such as
// FR-FCFS can serve a younger row hit before the head.
template <class T>
class BoundedQueue {
public:
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {
    if (capacity == 0) throw std::invalid_argument("BoundedQueue capacity must be >= 1");
  }

  // Refused pushes are counted: a full queue is back-pressure the stats show.
  bool try_push(T v) {
    if (full()) {
      ++refusals_;
      return false;
    }
    items_.push_back(std::move(v));
    max_occupancy_ = std::max(max_occupancy_, items_.size());
    return true;
  }
  T pop() { return erase_at(0); }
  // Removes and returns the i-th oldest entry; the others keep their order.
  T erase_at(size_t i) {
    if (i >= items_.size()) throw std::out_of_range("BoundedQueue::erase_at past the end");
    T v = std::move(items_[i]);
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(i));
    return v;
  }

  T& front() { return items_.front(); }
  const T& front() const { return items_.front(); }
  T& operator[](size_t i) { return items_[i]; }
  const T& operator[](size_t i) const { return items_[i]; }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

  size_t size() const { return items_.size(); }
  size_t capacity() const { return capacity_; }
  bool empty() const { return items_.empty(); }
  bool full() const { return items_.size() >= capacity_; }
  uint64_t refusals() const { return refusals_; }
  size_t max_occupancy() const { return max_occupancy_; }

private:
  size_t capacity_;
  std::deque<T> items_;
  uint64_t refusals_ = 0;
  size_t max_occupancy_ = 0;
};

// The LT contention sensor: cycles that bookings waited (start - arrival),
// summed over every resource booked since the last take(). SystemC runs all
// processes on one OS thread and an LT initiator's calls run to completion in
// its own process, so an initiator that takes the tally, makes its calls and
// takes it again sees the waits its own calls met. The sum mixes the clocks
// of the resources it crosses: it says "something was saturated", not how
// long for. thread_local keeps simulations on other threads apart.
//
// The waits at queues several initiators share (a crossbar output, an L2
// slice, a DRAM channel) are also kept apart: the request budget
// (sim.lt_busy_requests, docs/timing.md "Contention syncs") is for a burst
// on such a queue. A wait at an SM's own L1 pipeline or crossbar port is that
// SM queueing behind itself, and one for an hLRC line's owner is not a queue
// (LT keeps ownership episodes in simulated time).
class WaitTally {
public:
  static void add(uint64_t cycles, bool shared = true) {
    cycles_ += cycles;
    if (shared) shared_ += cycles;
  }
  static uint64_t take() { return std::exchange(cycles_, 0); }        // every wait
  static uint64_t take_shared() { return std::exchange(shared_, 0); } // at shared ones

private:
  static inline thread_local uint64_t cycles_ = 0, shared_ = 0;
};

// What a shared resource's users cost it: uses, busy cycles, and the waits
// (BusyUntil here, IntervalResource in interval_resource.hpp).
class ResourceUse {
public:
  // Only one initiator ever uses it (an SM's L1 pipeline, its crossbar
  // ports): its waits are not contention (WaitTally).
  void set_private() { private_ = true; }
  uint64_t uses() const { return uses_; }
  uint64_t busy_cycles() const { return busy_cycles_; }
  uint64_t wait_cycles() const { return wait_cycles_; } // sum of (start - arrival)
  uint64_t waited() const { return waited_; }           // acquisitions that had to wait

protected:
  void note_use(Cycle arrival, Cycle start, Cycle occupancy) {
    ++uses_;
    busy_cycles_ += occupancy;
    if (start > arrival) {
      ++waited_;
      wait_cycles_ += start - arrival;
      WaitTally::add(start - arrival, !private_);
    }
  }
  void clear_uses() { uses_ = busy_cycles_ = wait_cycles_ = waited_ = 0; }

private:
  uint64_t uses_ = 0, busy_cycles_ = 0, wait_cycles_ = 0, waited_ = 0;
  bool private_ = false;
};

// A resource (bank, port, link) that serves one request at a time and is free
// again at `free_at()`. Requests are served in the order acquire() is called,
// so callers must call it in arrival order for the waits to be meaningful.
class BusyUntil : public ResourceUse {
public:
  // Returns the cycle the request starts: max(arrival, free_at).
  Cycle acquire(Cycle arrival, Cycle occupancy) {
    const Cycle start = std::max(arrival, free_at_);
    free_at_ = start + occupancy;
    note_use(arrival, start, occupancy);
    return start;
  }
  bool busy(Cycle now) const { return now < free_at_; }
  Cycle free_at() const { return free_at_; }

private:
  Cycle free_at_ = 0;
};

// Stall counts by reason ("mshr_full", "bank_busy", "credit", ...). Ordered by
// name so dumps and comparisons do not depend on which stall happened first.
class StallCounters {
public:
  void add(std::string_view reason, uint64_t n = 1) {
    auto it = counts_.find(reason); // transparent lookup: no allocation on a hit
    if (it == counts_.end()) it = counts_.emplace(std::string(reason), 0).first;
    it->second += n;
  }
  uint64_t count(std::string_view reason) const {
    auto it = counts_.find(reason);
    return it == counts_.end() ? 0 : it->second;
  }
  uint64_t total() const {
    uint64_t t = 0;
    for (const auto& [reason, n] : counts_)
      t += n;
    return t;
  }
  auto begin() const { return counts_.begin(); }
  auto end() const { return counts_.end(); }
  size_t size() const { return counts_.size(); }
  bool empty() const { return counts_.empty(); }

private:
  std::map<std::string, uint64_t, std::less<>> counts_;
};

} // namespace tlmgpu
