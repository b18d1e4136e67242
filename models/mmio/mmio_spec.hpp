// Parameters of the device-window register block (models/mmio/README.md).
#pragma once

#include "tlmgpu/params.hpp"

namespace tlmgpu {

struct MmioSpec {
  uint32_t latency = 0;
  double clock_mhz = 0;
  template <class V>
  void visit(V& v) {
    v.param(latency, "latency", 10, Range{0, 100000}, "cycles",
            "from a request's arrival to its response");
    v.param(clock_mhz, "clock_mhz", 1200.0, Range{1, 1e5}, "MHz", "the register block's clock");
  }
  void derive() {}
};

} // namespace tlmgpu
