// DRAM parameters: one declaration drives parsing, validation, dumps and docs.
// Timing values are in DRAM command-clock cycles (clock_mhz).
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct DramSpec {
  std::string kind;
  uint32_t channels = 0, banks = 0, bank_groups = 0, bus_bytes = 0, burst_length = 0, data_rate = 0,
           row_bytes = 0, queue_size = 0;
  double clock_mhz = 0;
  uint32_t tRCD = 0, tCL = 0, tRP = 0, tRAS = 0, tRC = 0, tWL = 0, tWR = 0, tCCD = 0, tRRD = 0,
           latency = 0;
  std::string scheduler, page_policy;

  template <class V>
  void visit(V& v) {
    v.text(kind, "kind", "HBM2", "memory technology label (informational)");
    v.param(channels, "channels", 24, Range{1, 1024}, "",
            "independent channels (one per L2 partition)");
    v.param(banks, "banks", 16, Range{1, 256}, "", "banks per channel");
    v.param(bank_groups, "bank_groups", 4, Range{1, 64}, "", "bank groups per channel");
    v.param(bus_bytes, "bus_bytes", 16, Range{1, 512}, "bytes", "data bus width per channel");
    v.param(burst_length, "burst_length", 2, Range{1, 64}, "beats", "beats per access burst");
    v.param(data_rate, "data_rate", 2, Range{1, 8}, "beats/cycle",
            "transfers per command clock (2 = DDR)");
    v.param(row_bytes, "row_bytes", 2048, Range{64, 1 << 20}, "bytes", "row (page) size per bank");
    v.param(clock_mhz, "clock_mhz", 850.0, Range{1, 100000}, "MHz", "DRAM command clock");
    v.param(tRCD, "tRCD", 12, Range{0, 1000}, "cycles", "activate to read/write");
    v.param(tCL, "tCL", 12, Range{0, 1000}, "cycles", "read command to first data (CAS latency)");
    v.param(tRP, "tRP", 12, Range{0, 1000}, "cycles", "precharge to activate");
    v.param(tRAS, "tRAS", 28, Range{0, 1000}, "cycles", "activate to precharge");
    v.param(tRC, "tRC", 40, Range{0, 1000}, "cycles", "activate to activate, same bank");
    v.param(tWL, "tWL", 2, Range{0, 1000}, "cycles", "write command to first data");
    v.param(tWR, "tWR", 10, Range{0, 1000}, "cycles", "end of write data to precharge");
    v.param(tCCD, "tCCD", 1, Range{0, 1000}, "cycles", "column command to column command");
    v.param(tRRD, "tRRD", 3, Range{0, 1000}, "cycles", "activate to activate, different banks");
    v.param(latency, "latency", 46, Range{0, 100000}, "cycles",
            "fixed controller/PHY latency added to every access (calibrates the end-to-end DRAM "
            "latency)");
    v.param(queue_size, "queue_size", 32, Range{1, 4096}, "requests",
            "scheduler queue per channel");
    v.choice(scheduler, "scheduler", "frfcfs", {"frfcfs", "fcfs"}, "request scheduling policy");
    v.choice(page_policy, "page_policy", "open", {"open", "closed"}, "row-buffer policy");
  }

  // Derived once by derive(): bytes moved by one burst, bus cycles it occupies,
  // and peak bandwidth of all channels.
  uint32_t burst_bytes = 0, burst_cycles = 0;
  double peak_bytes_per_s = 0;
  void derive() {
    burst_bytes = bus_bytes * burst_length;
    burst_cycles = (burst_length + data_rate - 1) / data_rate;
    peak_bytes_per_s = double(channels) * bus_bytes * data_rate * clock_mhz * 1e6;
    if (banks % bank_groups != 0)
      throw ConfigError("dram.banks (" + std::to_string(banks) +
                        ") must be a multiple of dram.bank_groups (" + std::to_string(bank_groups) +
                        ")");
  }
};

} // namespace tlmgpu
