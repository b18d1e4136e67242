// Streaming-multiprocessor parameters (this issue: the count, clock and the
// unified L1/shared SRAM; the SM issue adds warps, schedulers and occupancy).
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>

namespace tlmgpu {

struct SmSpec {
  uint32_t count = 0, warp_size = 0, unified_sram_bytes = 0;
  double clock_mhz = 0;

  template <class V> void visit(V& v) {
    v.param(count, "count", 80, Range{1, 4096}, "", "streaming multiprocessors");
    v.param(clock_mhz, "clock_mhz", 1200.0, Range{1, 100000}, "MHz", "core clock");
    v.param(warp_size, "warp_size", 32, Range{1, 32}, "lanes", "threads per warp");
    v.param(unified_sram_bytes, "unified_sram_bytes", 131072, Range{0, 1 << 30}, "bytes",
            "unified L1 + shared memory SRAM per SM; l1.bytes + shared_mem.bytes must fit");
  }
  void derive() {}
};

} // namespace tlmgpu
