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

#include <array>
#include <cstdint>
#include <unordered_map>

namespace tlmgpu {

class InFlightWrites {
public:
  void sent(const Writeback& wb) {
    Entry& e = lines_[wb.line];
    for (unsigned b = 0; b < kMaxLineBytes; ++b)
      if (wb.dirty.test(b)) e.data[b] = wb.data[b], e.dirty.set(b);
    ++e.writes;
  }
  // A write of `line` was applied below (its answer came back). The bytes
  // stay until the last write of the line in flight has landed: an older
  // one landing first cannot make a newer one's bytes wrong to lay over.
  void landed(Addr line) {
    const auto it = lines_.find(line);
    if (it != lines_.end() && --it->second.writes == 0) lines_.erase(it);
  }
  // Lays the bytes still on their way over `fill_data` of `line`; how many.
  unsigned overlay(Addr line, uint8_t* fill_data) const {
    const auto it = lines_.find(line);
    if (it == lines_.end()) return 0;
    unsigned n = 0;
    for (unsigned b = 0; b < kMaxLineBytes; ++b)
      if (it->second.dirty.test(b)) fill_data[b] = it->second.data[b], ++n;
    return n;
  }
  bool holds(Addr line) const { return lines_.count(line) != 0; }

private:
  struct Entry {
    std::array<uint8_t, kMaxLineBytes> data{};
    ByteMask dirty;
    uint32_t writes = 0;
  };
  std::unordered_map<Addr, Entry> lines_;
};

} // namespace tlmgpu
