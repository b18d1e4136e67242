// The write-backs a cache sent down the AT path that have not reached the
// next level yet (AT mode only). DRAM applies a write's data when it reaches
// the channel (models/dram), so a blocking read of the same line meanwhile
// (a fill on the blocking path: an RSP operation, a LAB or PHI flush) would
// read bytes older than the ones on their way. Those bytes are laid over
// such a fill, newest last, until the write's answer comes back. Found by
// the work-stealing queues under sRSP in AT, where a thief's remote CAS
// read a queue word from DRAM while the line's write-back was still queued
// and took a task twice.
#pragma once

#include "tlmgpu/cache_array.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tlmgpu {

// A few dozen writes are in flight at most (the DRAM port's window and the
// queue before it), so a vector in send order does: sending is one copy
// into reused storage (no allocation per write-back on the AT path), and
// only the rare blocking fill walks it.
class InFlightWrites {
public:
  void sent(const Writeback& wb) { writes_.push_back(wb); }
  // The oldest write of `line` was applied below (its answer came back):
  // the writes of one line reach the channel, and are answered, in order.
  void landed(Addr line) {
    const auto it = std::find_if(writes_.begin(), writes_.end(),
                                 [line](const Writeback& w) { return w.line == line; });
    if (it != writes_.end()) writes_.erase(it);
  }
  // Lays the bytes still on their way over `fill_data` of `line`, oldest
  // first so the newest win; returns how many bytes it set.
  unsigned overlay(Addr line, uint8_t* fill_data) const {
    ByteMask set;
    for (const Writeback& w : writes_) {
      if (w.line != line) continue;
      for (unsigned b = 0; b < kMaxLineBytes; ++b)
        if (w.dirty.test(b)) fill_data[b] = w.data[b];
      set |= w.dirty;
    }
    return set.count();
  }
  bool holds(Addr line) const {
    return std::any_of(writes_.begin(), writes_.end(),
                       [line](const Writeback& w) { return w.line == line; });
  }

private:
  std::vector<Writeback> writes_;
};

} // namespace tlmgpu
