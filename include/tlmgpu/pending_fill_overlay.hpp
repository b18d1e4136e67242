// Keeps a cache coherent with itself when a dirty line is evicted while a fill
// of that same line is in flight (AT mode only). The fill's read reached the
// next level before the write-back did, so its data is older than the bytes
// just written back; those bytes are remembered here and laid over the fill
// data when it arrives. Found by the random-traffic checker.
#pragma once

#include "tlmgpu/cache_array.hpp"

#include <map>

namespace tlmgpu {

class PendingFillOverlay {
public:
  void note(const Writeback& wb) {
    auto [it, fresh] = lines_.try_emplace(wb.line, wb);
    if (fresh) return;
    for (unsigned b = 0; b < kMaxLineBytes; ++b)
      if (wb.dirty.test(b)) it->second.data[b] = wb.data[b], it->second.dirty.set(b);
  }
  // Applies and forgets the remembered bytes of `line`; returns how many.
  unsigned apply(Addr line, uint8_t* fill_data) {
    auto it = lines_.find(line);
    if (it == lines_.end()) return 0;
    unsigned n = 0;
    for (unsigned b = 0; b < kMaxLineBytes; ++b)
      if (it->second.dirty.test(b)) fill_data[b] = it->second.data[b], ++n;
    lines_.erase(it);
    return n;
  }

private:
  std::map<Addr, Writeback> lines_;
};

} // namespace tlmgpu
