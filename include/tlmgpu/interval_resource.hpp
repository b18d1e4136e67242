// A shared resource (link, pipeline, bank, bus, ALU) that books busy time
// intervals, so requests are served in the order of their arrival times, not
// in the order acquire() is called. Kernel-free, in cycles of the owner's clock.
//
// Why: in LT, initiators run ahead of the kernel by up to a quantum (temporal
// decoupling), so a resource is called in an order unrelated to time. A
// busy-until resource (BusyUntil) then queues a request that arrives at cycle
// 100 behind one that an SM running ahead booked for cycle 900, and simulated
// time depends on the quantum and on the order the initiators happen to run.
// Booking intervals lets the early request use the free time before 900.
//
// Booking::CallOrder is exactly BusyUntil (a request never starts before the
// end of the latest booking). It is for callers whose calls are in time order
// by construction but whose model is an in-order queue (AT: a request that has
// to wait holds up the ones behind it), where back-filling gaps would change
// the model, not just fix the call order.
//
// acquire_ahead() books a span a caller knows to lie in the future (a
// side-band packet whose whole journey is booked in one call, e.g. hLRC's
// recall and its write-back leg). In call order it does not move the
// busy-until point: it is kept aside, and in-order requests that arrive
// before it still go first; they only step over it where they would overlap.
// In time order it is acquire().
#pragma once

#include "tlmgpu/timing.hpp"
#include "tlmgpu/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlmgpu {

enum class Booking : uint8_t {
  CallOrder, // busy-until: served in call order (BusyUntil)
  TimeOrder, // intervals: served in arrival-time order, gaps are reused
};

class IntervalResource : public ResourceUse {
public:
  // Live spans beyond this are folded, oldest first, into one busy span: a
  // bound on memory and search time if the owner never calls retire(). A
  // request arriving that far back then waits as it would behind BusyUntil.
  static constexpr size_t kMaxSpans = 1 << 16;

  explicit IntervalResource(Booking b = Booking::TimeOrder)
      : time_order_(b == Booking::TimeOrder) {}
  // Only before the first acquire(): the booked state is not converted.
  void set_booking(Booking b) { time_order_ = b == Booking::TimeOrder; }
  Booking booking() const { return time_order_ ? Booking::TimeOrder : Booking::CallOrder; }

  // Books the earliest [start, start + occupancy) with start >= arrival that
  // is free, and returns start. A zero occupancy books nothing but still
  // starts outside any busy interval (it waits for the one it lands in).
  Cycle acquire(Cycle arrival, Cycle occupancy) {
    const Cycle start = earliest(arrival, occupancy);
    book(start, occupancy);
    note_use(arrival, start, occupancy);
    return start;
  }

  // Books a span that lies ahead of the in-order traffic (see the header):
  // the earliest free start >= arrival that is neither before the busy-until
  // point nor overlaps another span booked ahead; returns it.
  Cycle acquire_ahead(Cycle arrival, Cycle occupancy) {
    if (time_order_) return acquire(arrival, occupancy);
    const Cycle start = past_ahead(std::max(arrival, free_at_), occupancy);
    if (occupancy != 0) {
      auto at = std::upper_bound(ahead_.begin(), ahead_.end(), start,
                                 [](Cycle a, const Span& s) { return a < s.begin; });
      ahead_.insert(at, Span{start, start + occupancy});
      if (ahead_.size() > kMaxSpans) { // bound as for spans_: the oldest become busy-until
        const auto half = std::ptrdiff_t(ahead_.size() / 2);
        free_at_ = std::max(free_at_, ahead_[size_t(half) - 1].end);
        ahead_.erase(ahead_.begin(), ahead_.begin() + half);
      }
    }
    note_use(arrival, start, occupancy);
    return start;
  }

  // The start acquire() would return, without booking anything.
  Cycle earliest(Cycle arrival, Cycle occupancy) const {
    if (!time_order_) return past_ahead(std::max(arrival, free_at_), occupancy);
    if (head_ == spans_.size() || arrival >= spans_.back().end) return arrival; // common case
    // First span ending after `arrival` (spans are disjoint, so ends are sorted).
    auto it = std::upper_bound(spans_.begin() + std::ptrdiff_t(head_), spans_.end(), arrival,
                               [](Cycle a, const Span& s) { return a < s.end; });
    Cycle s = arrival;
    for (; it != spans_.end(); ++it) {
      if (occupancy == 0 ? s < it->begin : s + occupancy <= it->begin) return s;
      s = std::max(s, it->end);
    }
    return s;
  }

  // Books [start, start + occupancy) without a search; the caller found it
  // free with earliest() (e.g. a start that must suit two resources at once).
  // Not counted in the stats: acquire() does that.
  void book(Cycle start, Cycle occupancy) {
    const Cycle end = start + occupancy;
    if (!time_order_) {
      free_at_ = std::max(free_at_, end);
      // Spans booked ahead that end by now can never be stepped over again.
      size_t gone = 0;
      while (gone < ahead_.size() && ahead_[gone].end <= free_at_)
        ++gone;
      ahead_.erase(ahead_.begin(), ahead_.begin() + std::ptrdiff_t(gone));
      return;
    }
    if (occupancy == 0) return;
    free_at_ = std::max(free_at_, end);
    if (head_ == spans_.size() || start > spans_.back().end) {
      spans_.push_back({start, end});
    } else if (start == spans_.back().end) {
      spans_.back().end = end; // back to back with the latest booking
    } else {
      insert(start, end);
    }
    if (spans_.size() - head_ > kMaxSpans) fold_oldest();
  }

  // Books every free cycle of [from, to): the resource is held for a while
  // (e.g. an in-order input stalled behind its head request), so whatever
  // arrives in that window waits for its end. Not counted in the stats.
  void occupy(Cycle from, Cycle to) {
    if (!time_order_) {
      if (from < to) book(from, to - from); // busy-until: held until `to`
      return;
    }
    while (from < to) {
      const Cycle s = earliest(from, 1);
      if (s >= to) return;
      // The free gap at s ends where the next span begins (or at `to`).
      auto next = std::upper_bound(spans_.begin() + std::ptrdiff_t(head_), spans_.end(), s,
                                   [](Cycle a, const Span& x) { return a < x.begin; });
      const Cycle e = next == spans_.end() ? to : std::min(to, next->begin);
      book(s, e - s);
      from = e;
    }
  }

  // No request will arrive before `before` any more (LT: the kernel's time,
  // since initiators only run ahead of it): forget what ended by then.
  void retire(Cycle before) {
    if (!time_order_) return;
    while (head_ < spans_.size() && spans_[head_].end <= before)
      ++head_;
    // Compact now and then, so retiring is O(1) amortised per span.
    if (head_ >= 16 && head_ * 2 >= spans_.size()) {
      spans_.erase(spans_.begin(), spans_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }

  // Back to unused (no bookings, zero stats), keeping the storage.
  void reset() {
    spans_.clear();
    ahead_.clear();
    head_ = 0;
    free_at_ = 0;
    clear_uses();
  }

  bool busy(Cycle now) const {
    if (!time_order_)
      return now < free_at_ || std::any_of(ahead_.begin(), ahead_.end(), [now](const Span& s) {
               return s.begin <= now && now < s.end;
             });
    auto it = std::upper_bound(spans_.begin() + std::ptrdiff_t(head_), spans_.end(), now,
                               [](Cycle a, const Span& s) { return a < s.end; });
    return it != spans_.end() && it->begin <= now;
  }
  Cycle free_at() const { // end of the latest booking
    return ahead_.empty() ? free_at_ : std::max(free_at_, ahead_.back().end);
  }
  size_t spans() const { return spans_.size() - head_; } // live busy intervals

private:
  struct Span {
    Cycle begin, end; // [begin, end), disjoint, sorted, never touching
  };

  // [start, end) is free and lies before the latest span: merge with the
  // neighbours it touches, else insert it in place.
  void insert(Cycle start, Cycle end) {
    auto next = std::upper_bound(spans_.begin() + std::ptrdiff_t(head_), spans_.end(), start,
                                 [](Cycle a, const Span& s) { return a < s.begin; });
    const bool joins_prev =
        next != spans_.begin() + std::ptrdiff_t(head_) && (next - 1)->end == start;
    const bool joins_next = next != spans_.end() && next->begin == end;
    if (joins_prev && joins_next) {
      (next - 1)->end = next->end;
      spans_.erase(next);
    } else if (joins_prev) {
      (next - 1)->end = end;
    } else if (joins_next) {
      next->begin = start;
    } else {
      spans_.insert(next, Span{start, end});
    }
  }

  // Call order: the first start >= s where [start, start + occupancy) does
  // not overlap a span booked ahead (ahead_ is sorted and disjoint).
  Cycle past_ahead(Cycle s, Cycle occupancy) const {
    // Disjoint and sorted by begin, so the ends are sorted too: the spans
    // ending by `s` are a prefix, skipped by a binary search. An AT burst
    // into one crossbar output leaves thousands booked ahead, and the linear
    // walk over them was the crossbar's largest cost (docs/performance.md).
    auto it = std::partition_point(ahead_.begin(), ahead_.end(),
                                   [s](const Span& a) { return a.end <= s; });
    // Past that prefix every span ends after `s`, and stepping over one
    // keeps it so (the next begins at or after its end).
    for (; it != ahead_.end(); ++it) {
      if (occupancy == 0 ? s < it->begin : s + occupancy <= it->begin) break;
      s = it->end;
    }
    return s;
  }

  void fold_oldest() {
    const size_t half = (spans_.size() - head_) / 2;
    const auto first = spans_.begin() + std::ptrdiff_t(head_);
    (first + std::ptrdiff_t(half))->begin = first->begin;
    spans_.erase(first, first + std::ptrdiff_t(half));
  }

  bool time_order_;
  std::vector<Span> spans_; // live ones from head_ on
  std::vector<Span> ahead_; // call order: spans booked ahead, sorted
  size_t head_ = 0;
  Cycle free_at_ = 0;
};

} // namespace tlmgpu
