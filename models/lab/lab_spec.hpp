// Per-SM local atomic buffer (LAB) parameters (seed-000 §1.3-1.8, §7.3).
// Latencies are in SM clock cycles. See README.md for the model.
#pragma once

#include "tlmgpu/params.hpp"
#include "tlmgpu/sram_claim.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct LabSpec {
  uint32_t entries = 0, ways = 0, line_bytes = 0, sector_bytes = 0, latency = 0, inject_queue = 0;
  bool infinite = false, flush_on_barrier = false;
  std::string mode, variant, inject_fault;

  template <class V>
  void visit(V& v) {
    v.param(entries, "entries", 0, Range{0, 65536}, "lines",
            "buffer lines per SM (0 = no LAB; the paper's sizes are 8..256)");
    v.param(infinite, "infinite", false, Range{}, "",
            "LAB-Inf: unbounded, never evicts, takes no L1 bytes (entries must stay 0)");
    v.param(ways, "ways", 8, Range{0, 65536}, "",
            "associativity; 0 or equal to entries = fully associative");
    v.param(line_bytes, "line_bytes", 128, Range{8, 256}, "bytes", "line size (power of two)");
    v.param(sector_bytes, "sector_bytes", 32, Range{4, 256}, "bytes",
            "sector size (power of two, divides the line); eviction packets count sectors");
    v.param(latency, "latency", 20, Range{0, 100000}, "cycles",
            "pipelined access latency; a buffered atomic completes after it (authors' code)");
    v.param(inject_queue, "inject_queue", 8, Range{1, 65536}, "packets",
            "AT: LAB packets (evictions, forwards) waiting to enter the SM's LD/ST port; a request "
            "that would send one while it is full stalls (lab.icnt_fail). Flushes may overfill it");
    v.choice(mode, "mode", "strict", {"strict", "paper_compatible"},
             "strict: device-scope commutative reds only; paper_compatible: device-scope "
             "mergeable atomics and reds of any order; their returned values, and loads of "
             "the words they touched, come from a per-GPU golden memory (optimistic, seed-000 "
             "pitfall 4; SM stores update it, non-LAB atomics racing LAB ones in a kernel do "
             "not)");
    v.param(flush_on_barrier, "flush_on_barrier", false, Range{}, "",
            "also flush at CTA barriers (device/system fences and releases always flush)");
    v.choice(variant, "variant", "normal", {"normal", "serialization_only", "no_flush_cost"},
             "serialization_only: complete locally, store nothing, forward every atomic; "
             "no_flush_cost: kernel-end flush takes no time (ANBF)");
    v.choice(inject_fault, "inject_fault", "none",
             {"none", "lose_update", "double_count", "fence_before_drain"},
             "test hook: corrupt the first buffered access (drop it, or merge it twice), or pass "
             "ordering points on before the flush they order has reached L2 "
             "(fence_before_drain), so the tests can be shown to catch a broken LAB");
  }

  // Derived: sets x assoc = entries (0 sets when disabled or infinite).
  uint32_t sets = 0, assoc = 0, sectors_per_line = 0;
  bool enabled() const { return infinite || entries > 0; }
  // Throws ConfigError naming the `lab.*` keys.
  void derive();
};

// Bytes the LAB takes from the L1: entries x line (0 for off and for Inf).
uint32_t lab_bytes(const LabSpec& s);
// The same bytes as the L1 carve-out's claim, naming the keys that set it.
SramClaim lab_sram_claim(const LabSpec& s);

} // namespace tlmgpu
