// AT bookkeeping of the packets an SM's LAB sends to L2 (kernel-free; the
// LAB stage's at path, lab_at_module.cpp, drives it). Seed-000 §1.5-1.7.
//
//  * A bounded injection queue (lab.inject_queue packets) in front of the
//    stage's port towards the L1. A LAB request that would send a packet while the queue
//    is full stalls (GPGPU-Sim's `lab_icnt_fail`); a flush queues all its
//    lines at once and may overfill it ("all valid entries are queued; each
//    is injected when there is buffer space").
//  * Every packet is numbered when it is queued and stays unacknowledged
//    until L2's reply comes back (the reply is dropped, as in GPGPU-Sim). An
//    ordering point takes mark() and waits until acked_before(mark): exactly
//    the packets queued before it, not the ones other warps queue while it
//    waits (waiting for "nothing unacknowledged" could wait forever under
//    steady eviction traffic). Replies come back out of order (different L2
//    slices), hence a window of replied flags above the lowest unreplied one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tlmgpu {

template <class Packet>
class LabInjection {
public:
  explicit LabInjection(size_t capacity) : capacity_(capacity) {
    if (capacity == 0) throw std::invalid_argument("LabInjection: capacity must be > 0");
  }

  bool full() const { return queue_.size() >= capacity_; }
  size_t queued() const { return queue_.size(); }
  size_t capacity() const { return capacity_; }

  // Queues `p`. Never refuses: a flush may pass the capacity, and so may the
  // second packet of a request (callers stall new requests while full()).
  // Returns its number.
  uint64_t push(Packet* p) {
    queue_.push_back(p);
    acked_.push_back(0);
    return next_++;
  }
  Packet* front() const { return queue_.front(); }
  // The front packet went to the port: it waits for its reply now. Packets
  // leave in number order, so the front's number is next_ - queued().
  void pop_sent() {
    sent_.emplace_back(queue_.front(), next_ - queue_.size());
    queue_.pop_front();
  }
  // A reply arrived. False if `p` is not one of this queue's packets. (A
  // short vector: few packets are in flight and replies come back roughly in
  // order, so the search ends near its front.)
  bool ack(Packet* p) {
    auto it = std::find_if(sent_.begin(), sent_.end(), [p](const auto& e) { return e.first == p; });
    if (it == sent_.end()) return false;
    acked_[it->second - base_] = 1;
    *it = sent_.back();
    sent_.pop_back();
    while (!acked_.empty() && acked_.front()) {
      acked_.pop_front();
      ++base_;
    }
    return true;
  }

  // Every packet queued so far has a number below mark().
  uint64_t mark() const { return next_; }
  // base_ is the lowest number not yet acknowledged (next_ if none).
  bool acked_before(uint64_t mark) const { return base_ >= mark; }
  // Nothing queued or waiting for a reply.
  bool settled() const { return base_ == next_; }
  size_t unacked() const {
    return size_t(next_ - base_) - size_t(std::count(acked_.begin(), acked_.end(), 1));
  }

private:
  size_t capacity_;
  std::deque<Packet*> queue_;
  std::vector<std::pair<Packet*, uint64_t>> sent_; // in flight: packet, number
  std::deque<uint8_t> acked_;                      // numbers base_ .. next_-1: replied?
  uint64_t base_ = 0, next_ = 0;
};

// A FIFO of large elements (the SM's queued LAB requests, ~1 KB each) that
// reuses its storage: std::deque would allocate a block per element.
template <class T>
class RecycledFifo {
public:
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  const T& front() const { return items_[head_]; }
  void push_back(const T& v) { items_.push_back(v); }
  void pop_front() {
    if (++head_ == items_.size()) {
      items_.clear(); // keeps the capacity
      head_ = 0;
    } else if (head_ >= 64 && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }

private:
  std::vector<T> items_;
  size_t head_ = 0;
};

} // namespace tlmgpu
