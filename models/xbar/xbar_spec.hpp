// Crossbar between SM-side ports and L2 slices: a request network and a
// reply network, each a single-stage switch with per-port serialization.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>

namespace tlmgpu {

struct XbarSpec {
  uint32_t flit_bytes = 0, header_bytes = 0, latency = 0, flits_per_cycle = 0, buffer_flits = 0;
  double clock_mhz = 0;

  template <class V>
  void visit(V& v) {
    v.param(flit_bytes, "flit_bytes", 40, Range{1, 4096}, "bytes", "flit size");
    v.param(header_bytes, "header_bytes", 8, Range{0, 4096}, "bytes", "control bytes per packet");
    v.param(latency, "latency", 8, Range{0, 100000}, "cycles",
            "traversal latency per direction (routing + allocation + link)");
    v.param(flits_per_cycle, "flits_per_cycle", 1, Range{1, 64}, "flits/cycle",
            "bandwidth of each port");
    v.param(buffer_flits, "buffer_flits", 256, Range{1, 1 << 20}, "flits",
            "input buffer per port (AT backpressure)");
    v.param(clock_mhz, "clock_mhz", 1200.0, Range{1, 100000}, "MHz", "interconnect clock");
  }
  void derive() {
    if (header_bytes >= flit_bytes * 64u)
      throw ConfigError("xbar.header_bytes is larger than 64 flits");
  }
  // Flits for a packet carrying `payload` bytes.
  uint32_t flits(uint32_t payload) const {
    return (header_bytes + payload + flit_bytes - 1) / flit_bytes;
  }
};

} // namespace tlmgpu
