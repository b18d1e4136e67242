// A pool of `capacity` identical units (MSHR entries) booked over time
// intervals, for LT callers that arrive out of time order. Kernel-free, in
// cycles of the owner's clock.
//
// Why: an L2 slice is called by every SM, each running up to a quantum ahead
// of the others, so the entries live at a call are not the fills in flight at
// the call's time. Each fill instead books one unit over [issue, ready), and
// a miss that arrives at t while `capacity` bookings cover t waits for the
// first time at or after t that one is free, as the hardware's miss waits for
// an entry to come back. The check is at the start only: a booking made later
// by an SM that ran behind may begin inside this one and over-book the pool
// for a while (LT has no way to push back bookings already handed out).
//
// The bookings are kept as two sorted lists, begins and ends: the number that
// cover t is (begins <= t) - (ends <= t), two binary searches, and the pool's
// occupancy can only drop at an end, so the wait steps along the ends.
#pragma once

#include "tlmgpu/types.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace tlmgpu {

class CapacityBooking {
public:
  explicit CapacityBooking(size_t capacity) : capacity_(capacity) {
    if (capacity == 0) throw std::invalid_argument("CapacityBooking needs a capacity >= 1");
  }

  // The first cycle >= `at` where fewer than `capacity` bookings are live.
  Cycle earliest(Cycle at) const {
    if (live() < capacity_) return at; // the common case: the pool cannot be full
    for (;;) {
      const auto end_after =
          std::upper_bound(ends_.begin() + std::ptrdiff_t(head_), ends_.end(), at);
      const size_t ended = size_t(end_after - ends_.begin()) - head_;
      const size_t begun =
          size_t(std::upper_bound(begins_.begin() + std::ptrdiff_t(head_), begins_.end(), at) -
                 begins_.begin()) -
          head_;
      if (begun - ended < capacity_) return at;
      at = *end_after; // covered bookings exist, so one ends after `at`
    }
  }

  // Books one unit over [begin, end); an empty interval books nothing.
  void book(Cycle begin, Cycle end) {
    if (end <= begin) return;
    insert_sorted(begins_, begin);
    insert_sorted(ends_, end);
  }

  // No request will arrive before `before` any more (LT: the kernel's time):
  // forget the bookings that ended by then. Dropping the k earliest ends with
  // the k earliest begins (each ended booking began before `before`, so these
  // begins all lie there too) leaves every count at or after `before` as it was.
  void retire(Cycle before) {
    while (head_ < ends_.size() && ends_[head_] <= before)
      ++head_;
    // Compact now and then, so retiring is O(1) amortised per booking.
    if (head_ >= 16 && head_ * 2 >= ends_.size()) {
      ends_.erase(ends_.begin(), ends_.begin() + std::ptrdiff_t(head_));
      begins_.erase(begins_.begin(), begins_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }

  size_t live() const { return ends_.size() - head_; } // bookings not yet retired
  size_t capacity() const { return capacity_; }

private:
  // Bookings come roughly in time order, so the insert is nearly always at
  // or near the back.
  void insert_sorted(std::vector<Cycle>& v, Cycle c) {
    v.insert(std::upper_bound(v.begin() + std::ptrdiff_t(head_), v.end(), c), c);
  }

  size_t capacity_;
  std::vector<Cycle> begins_, ends_; // sorted, the live ones from head_ on
  size_t head_ = 0;
};

// The union of intervals added in any order, for a stall counter: AT counts
// the cycles a slice's head request waited, so overlapping LT waits must
// count once, not once per waiting miss.
class CoveredCycles {
public:
  // Adds [begin, end) and returns how many of its cycles were not covered.
  Cycle add(Cycle begin, Cycle end) {
    if (end <= begin) return 0;
    // Spans that overlap or touch [begin, end) merge with it into one.
    auto first = std::lower_bound(spans_.begin() + std::ptrdiff_t(head_), spans_.end(), begin,
                                  [](const Span& s, Cycle c) { return s.end < c; });
    Cycle covered = 0, lo = begin, hi = end;
    auto last = first;
    for (; last != spans_.end() && last->begin <= end; ++last) {
      const Cycle b = std::max(begin, last->begin), e = std::min(end, last->end);
      if (e > b) covered += e - b;
      lo = std::min(lo, last->begin);
      hi = std::max(hi, last->end);
    }
    spans_.insert(spans_.erase(first, last), Span{lo, hi});
    return end - begin - covered;
  }

  // Nothing will be added before `before` any more: forget what ended by then.
  void retire(Cycle before) {
    while (head_ < spans_.size() && spans_[head_].end <= before)
      ++head_;
    if (head_ >= 16 && head_ * 2 >= spans_.size()) {
      spans_.erase(spans_.begin(), spans_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }

  size_t spans() const { return spans_.size() - head_; }

private:
  struct Span {
    Cycle begin, end; // [begin, end), disjoint, sorted, never touching
  };
  std::vector<Span> spans_; // the live ones from head_ on
  size_t head_ = 0;
};

} // namespace tlmgpu
