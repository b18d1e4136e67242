// Parameters of the irregular-access reorder unit (seed-003 §3.5, §3.6,
// §8.4; thesis Table 3.4). Declared once; a platform places the partitions
// through its topology (README.md). Values the thesis does not give are
// marked [A] in their descriptions (notes P18) and stay configurable.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct IruSpec {
  bool enabled = true, bypass_l2 = false;
  uint32_t sets = 0, slots = 0, banks = 0, prefetch_in_flight = 0, requests_buffer = 0,
           classifier_elements = 0, ring_buffer_elements = 0, ring_hop_cycles = 0,
           ring_link_elements = 0, timeout_cycles = 0, stage_cycles = 0, filter_residue = 0;
  double clock_mhz = 0;
  std::string merge;

  template <class V>
  void visit(V& v) {
    v.param(enabled, "enabled", true, Range{}, "",
            "false leaves the partitions placed but idle: configure_iru reports the unit "
            "unavailable, so a host program runs its GPU-only version on the same platform");
    v.param(clock_mhz, "clock_mhz", 1270, Range{1, 10000}, "MHz",
            "IRU clock (in the memory partition; the thesis' GTX 980 core clock) [A]");
    v.param(sets, "sets", 1024, Range{1, 1u << 20}, "sets",
            "reordering hash sets in total, direct mapped, split evenly over the partitions "
            "(1024 = 4 x 256 on GTX 980, Table 3.4)");
    v.param(slots, "slots", 32, Range{1, 32}, "elements",
            "elements per set: one warp's worth (a full set is replied at once)");
    v.param(banks, "banks", 2, Range{1, 64}, "banks",
            "banks of a partition's hash: one insertion per bank per cycle [A]");
    v.param(prefetch_in_flight, "prefetch_in_flight", 8, Range{1, 1024}, "lines",
            "index/secondary line reads a partition keeps in flight (Table 3.4)");
    v.param(requests_buffer, "requests_buffer", 128, Range{1, 1u << 16}, "requests",
            "pending warp load_iru requests per partition (2 KB at 16 B a descriptor [A])");
    v.param(classifier_elements, "classifier_elements", 120, Range{1, 1u << 20}, "elements",
            "elements waiting for insertion in a partition (classifier FIFOs, 1.2 KB at 10 B "
            "[A]); the prefetcher stops issuing while they are full");
    v.param(ring_buffer_elements, "ring_buffer_elements", 280, Range{1, 1u << 20}, "elements",
            "ring buffering per partition (2.8 KB at 10 B an element [A])");
    v.param(ring_hop_cycles, "ring_hop_cycles", 1, Range{0, 1000}, "cycles",
            "latency of one ring hop [A]");
    v.param(ring_link_elements, "ring_link_elements", 1, Range{1, 64}, "elements",
            "elements (or secondary words) a ring link moves per cycle: the thesis says each "
            "partition sends and receives every cycle, not how wide [A]");
    v.param(timeout_cycles, "timeout_cycles", 512, Range{1, 1u << 30}, "cycles",
            "a warp request waiting this long is answered with the best partial sets; the "
            "thesis gives no value: 512 is the notes' assumption, sweep 128..4096 [A]");
    v.param(stage_cycles, "stage_cycles", 1, Range{0, 1000}, "cycles",
            "latency of each pipeline step: classify, insert, reply [A]");
    v.choice(merge, "merge", "none", {"none", "min_u32", "add_f32"},
             "merge ALU of a configure_iru call that names none: on equal indices keep the "
             "smaller 32-bit secondary (SSSP; without a secondary array: drop duplicates) or "
             "add them as floats (PageRank)");
    v.param(filter_residue, "filter_residue", 0, Range{0, 1024}, "IDs",
            "ISCU unique filtering (notes P20, `iscu_filter_persistent`): IDs each hash set "
            "remembers after replying them, so a later operation drops them too (BFS: "
            "vertices seen at earlier levels); 0 = off, filtering within one operation [A]");
    v.param(bypass_l2, "bypass_l2", false, Range{}, "",
            "prefetches bypass L2 (streaming kernels); not modelled yet: true is refused");
  }
  void derive() {
    if (bypass_l2)
      throw ConfigError("iru.bypass_l2: not modelled yet (the L2 has no no-allocate read); "
                        "IRU prefetches go through L2 (the thesis' default)");
  }
};

} // namespace tlmgpu
