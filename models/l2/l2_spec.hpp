// L2 parameters. One L2 partition per DRAM channel, each split into
// `sub_partitions` slices; a slice is a sectored, set-associative LRU cache
// with its own MSHRs and atomic unit. Latencies are in L2 clock cycles.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct L2Spec {
  uint32_t sub_partitions = 0, slice_bytes = 0, ways = 0, line_bytes = 0, sector_bytes = 0,
           latency = 0, mshr_entries = 0, mshr_max_merge = 0, input_queue = 0, atomic_latency = 0,
           atomics_per_cycle = 0;
  double clock_mhz = 0;
  std::string set_index;

  template <class V>
  void visit(V& v) {
    v.param(sub_partitions, "sub_partitions", 2, Range{1, 16}, "",
            "slices per memory partition (channel)");
    v.param(slice_bytes, "slice_bytes", 98304, Range{128, 1 << 30}, "bytes",
            "capacity of one slice");
    v.param(ways, "ways", 24, Range{1, 1024}, "", "associativity");
    v.param(line_bytes, "line_bytes", 128, Range{32, 256}, "bytes", "line size (power of two)");
    v.param(sector_bytes, "sector_bytes", 32, Range{4, 256}, "bytes",
            "sector size (power of two, divides the line)");
    v.param(
        latency, "latency", 102, Range{0, 100000}, "cycles",
        "slice pipeline latency from request arrival to response (hit), the ROP + tag + data path");
    v.param(mshr_entries, "mshr_entries", 192, Range{1, 65536}, "entries",
            "outstanding line misses per slice");
    v.param(mshr_max_merge, "mshr_max_merge", 4, Range{1, 1024}, "requests",
            "requests merged into one MSHR entry");
    v.param(input_queue, "input_queue", 32, Range{1, 65536}, "requests",
            "request queue in front of the slice (AT backpressure)");
    v.param(atomic_latency, "atomic_latency", 4, Range{1, 10000}, "cycles",
            "one read-modify-write in the atomic unit; dependent RMWs on the same word serialize "
            "by this");
    v.param(atomics_per_cycle, "atomics_per_cycle", 1, Range{1, 64}, "ops/cycle",
            "atomic unit throughput (lane ops per cycle)");
    v.param(clock_mhz, "clock_mhz", 1200.0, Range{1, 100000}, "MHz", "L2 clock");
    v.choice(set_index, "set_index", "partition", {"partition", "address"},
             "how a slice picks a line's set: 'partition' = from the line's number inside its "
             "slice (the address with the channel and sub-partition bits taken out, as GPGPU-Sim "
             "does), XOR-folded so that regions a power-of-two stride apart spread; 'address' = "
             "from the line address (before 2026-11-29: with the xor hash and a power-of-two "
             "slice count only half of a slice's sets are ever used)");
  }

  uint32_t sets = 0, sectors_per_line = 0;
  void derive();
};

} // namespace tlmgpu
