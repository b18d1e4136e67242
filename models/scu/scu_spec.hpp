// Parameters of the stream compaction unit (seed-003 §2.3, §2.8, Table 3.2).
// Declared once; a platform places the unit through its topology (README.md).
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct ScuSpec {
  uint32_t width = 0, coalescer_entries = 0, coalescer_merge = 0, vector_fifo_bytes = 0,
           fetch_fifo_bytes = 0, stage_cycles = 0, iru_requests = 0;
  double clock_mhz = 0;
  std::string filter_unit;

  template <class V>
  void visit(V& v) {
    v.param(width, "width", 4, Range{1, 64}, "elements/cycle",
            "pipeline width, fixed at synthesis: 4 (GTX 980) or 1 (Tegra X1)");
    v.param(clock_mhz, "clock_mhz", 1270, Range{1, 10000}, "MHz",
            "SCU clock (the GPU core clock: 1270 GTX 980, 1000 TX1)");
    v.param(coalescer_entries, "coalescer_entries", 32, Range{1, 4096}, "requests",
            "read requests in flight (the coalescing unit's 32 entries)");
    v.param(coalescer_merge, "coalescer_merge", 4, Range{1, 64}, "groups",
            "element groups (one cycle's `width` elements to one line) one in-flight read "
            "serves; the next group for that line makes a new request (\"4-merge\")");
    v.param(vector_fifo_bytes, "vector_fifo_bytes", 5120, Range{64, 1u << 30}, "bytes",
            "vector parameter buffer (mask/index/count): an operation is processed in chunks "
            "of as many elements as their vectors fit here");
    v.param(fetch_fifo_bytes, "fetch_fifo_bytes", 38912, Range{128, 1u << 30}, "bytes",
            "data fetch FIFO (in-order delivery): data lines outstanding plus waiting are "
            "bounded by it");
    v.param(stage_cycles, "stage_cycles", 1, Range{0, 1000}, "cycles",
            "latency of each pipeline stage (address generation, bitmask, data store)");
    v.choice(filter_unit, "filter_unit", "hash", {"hash", "iru"},
             "where a filtering command is filtered: hash = the Filtering/Grouping unit with "
             "its hash table in device memory through L2 (thesis Ch. 4); iru = the ISCU (Ch. "
             "6): the data fetches go to the IRU partition holding each line and its "
             "reordering hash drops duplicates, no table in memory (needs iru blocks)");
    v.param(iru_requests, "iru_requests", 32, Range{1, 4096}, "requests",
            "filter_unit = iru: reply requests the SCU keeps outstanding at the IRU windows "
            "(the Data Replier pushes results as sets fill; here the SCU asks) [A]");
  }
  void derive() {}
};

} // namespace tlmgpu
