// Banked per-SM scratchpad (CUDA shared memory).
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>

namespace tlmgpu {

struct SharedMemSpec {
  uint32_t bytes = 0, banks = 0, bank_bytes = 0, latency = 0;

  template <class V>
  void visit(V& v) {
    v.param(bytes, "bytes", 98304, Range{0, 1 << 30}, "bytes", "scratchpad capacity per SM");
    v.param(banks, "banks", 32, Range{1, 256}, "", "banks");
    v.param(bank_bytes, "bank_bytes", 4, Range{1, 64}, "bytes",
            "bank width (bytes per bank per cycle)");
    v.param(latency, "latency", 19, Range{0, 100000}, "cycles",
            "access latency without bank conflicts");
  }
  void derive() {}
};

} // namespace tlmgpu
