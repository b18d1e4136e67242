// Per-SM L1 data cache, kernel-free (style rule 1): tags and real data. The
// L1 module owns the sockets, MSHRs, queues and clock; see README.md.
//
// Sectored, LRU, allocate on fill. Global stores are write-through (NVIDIA,
// the default) or write-back; with write_allocate a store miss fetches the
// missing sectors first (fetch-on-write), otherwise it bypasses the L1.
// Atomics are performed at L2, so the L1 drops its copy of their sectors.
#pragma once

#include "models/l1/l1_spec.hpp"
#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/types.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tlmgpu {

struct L1Outcome {
  enum class Kind {
    Hit,    // serviced here (load data copied / write-back store absorbed)
    Miss,   // fetch `fetch_sectors`, fill(), then call again with replay = true
    Forward // send the store on to L2 (write-through, or write-back no-allocate miss)
  } kind = Kind::Hit;
  uint32_t fetch_sectors = 0;
  std::optional<Writeback> writeback;
};

class L1Core {
public:
  // `spec` must be derived (sets, sectors_per_line) unless bytes == 0
  // (disabled L1); it is copied.
  L1Core(const L1Spec& spec, StatGroup& stats);

  bool enabled() const { return array_.enabled(); }
  bool write_back() const { return write_back_; }

  // `data` is one line indexed by offset in the line. A Hit copies `sectors`
  // into it; a Miss names the sectors to fetch. `replay` marks the call after
  // the miss's fill so the request is counted once.
  L1Outcome load(Addr line, uint32_t sectors, uint8_t* data, bool replay = false);

  // Installs `sectors` of `data`; bytes already valid are kept (a write-back
  // L1's dirty bytes win over the older fill data). The returned writeback is
  // a dirty victim (write_back mode only) that must go to L2 before anything
  // that could read it.
  std::optional<Writeback> fill(Addr line, uint32_t sectors, const uint8_t* data);

  // `byte_enable` is line-sized, nonzero = write (null = the whole line).
  L1Outcome store(Addr line, const uint8_t* data, const uint8_t* byte_enable, bool replay = false);

  // An atomic to `sectors` of `line` is about to be performed at L2: drop
  // this L1's copy of those sectors. In write_back mode their dirty bytes are
  // returned and must reach L2 ahead of the atomic (never in write_through).
  std::optional<Writeback> atomic(Addr line, uint32_t sectors);

  // write_back mode: every dirty line's dirty bytes (lines stay valid, clean).
  std::vector<Writeback> flush();

  // Kernel boundary (acquire): drop everything. Throws std::logic_error if a
  // dirty line would be lost (call flush() first in write_back mode).
  void invalidate_all();

  const CacheArray& array() const { return array_; }

private:
  L1Spec spec_;
  bool write_back_;
  CacheArray array_;
  Counter &loads_, &load_hits_, &load_misses_, &sector_misses_, &stores_, &store_hits_,
      &atomics_invalidated_, &fills_, &evictions_, &writebacks_, &invalidations_;
};

} // namespace tlmgpu
