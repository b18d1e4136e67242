// GPUDet's overlapped serial mode, at one L2 slice, kernel-free (style rule
// 1). With gpudet.serial_overlap the serial mode grants the next warp as
// soon as the previous one has issued its atomic, so the requests of several
// warps are on their way at once and may reach a slice in any order (paths,
// jitter). At issue each request got the next number of a GPU-wide counter
// per slice (1, 2, ...), taken in grant order, i.e. ascending global warp id.
// This releases them in that order: a request that arrives before its turn
// is parked until every lower number has gone. Each address lives in one
// slice, so each address sees its atomics in global warp id order.
//
// `arrival_order` (gpudet.inject_fault = sequencer_arrival) is the negative
// control: requests go in the order they arrive, nothing is parked.
//
// A number below the next expected one, or a repeated one, is a model bug
// (InvariantError). Numbers never restart: the counters live as long as the
// GPU, across rounds and kernels.
#pragma once

#include "tlmgpu/invariant.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>

namespace tlmgpu {

template <class T>
class SerialSequencer {
public:
  explicit SerialSequencer(bool arrival_order = false) : arrival_order_(arrival_order) {}

  // Request number `seq` arrives. Returns whether it had to be parked
  // (arrived before its turn).
  bool arrive(uint64_t seq, T item) {
    if (arrival_order_) {
      queue_.push_back(std::move(item));
      return false;
    }
    if (seq < next_ || parked_.contains(seq))
      throw InvariantError("gpudet sequencer: serial request " + std::to_string(seq) +
                           (seq < next_
                                ? " arrived after its turn (next is " + std::to_string(next_) + ")"
                                : " arrived twice"));
    parked_.emplace(seq, std::move(item));
    return seq != next_;
  }
  // Whether a request may go now: the one whose turn it is has arrived
  // (or, in arrival order, any has).
  bool ready() const {
    return arrival_order_ ? !queue_.empty() : !parked_.empty() && parked_.begin()->first == next_;
  }
  // The request that goes next (ready() must hold).
  const T& front() const { return arrival_order_ ? queue_.front() : parked_.begin()->second; }
  // Takes it: the turn passes to the next number.
  T release() {
    if (!ready()) throw InvariantError("gpudet sequencer: release() with nothing ready");
    if (arrival_order_) {
      T t = std::move(queue_.front());
      queue_.pop_front();
      return t;
    }
    auto it = parked_.begin();
    T t = std::move(it->second);
    parked_.erase(it);
    ++next_;
    return t;
  }
  uint64_t next() const { return next_; }
  size_t waiting() const { return arrival_order_ ? queue_.size() : parked_.size(); }

private:
  const bool arrival_order_;
  uint64_t next_ = 1;
  std::map<uint64_t, T> parked_; // by number; holds the current turn's too until released
  std::deque<T> queue_;          // arrival order
};

} // namespace tlmgpu
