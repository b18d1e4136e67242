// Parameters of the scoped-cache protocol engine (seed-002 §3.4, §6.3).
// Declared once; `tlmgpu litmus --set scoped.<key>=v` reads them through
// the same visitor as every block's spec.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tlmgpu::scoped {

// The coherence implementations compared (seed-002 §1.9, §2):
//   cmp      every wg and remote operation performed at cmp scope (the
//            paper's Baseline and Steal-only): always correct, never cheap;
//   norsp    wg operations in the L1, remote operations as plain cmp ones:
//            what scoped synchronization gives without promotion (a negative
//            control: message passing to a thief must fail);
//   brsp     Orr et al.'s RSP: broadcast flush, lock and invalidate of every L1;
//   srsp     LR-TBL, PA-TBL, selective flush/invalidate, L2 line lock;
//   srsp_opt srsp plus the same-CU shortcut and the owner predictor (§2.6).
enum class Protocol { Cmp, NoRsp, Brsp, Srsp, SrspOpt };
Protocol parse_protocol(const std::string& name); // throws ConfigError
const char* protocol_name(Protocol p);
inline const std::vector<std::string>& protocol_names() {
  static const std::vector<std::string> n{"cmp", "norsp", "brsp", "srsp", "srsp_opt"};
  return n;
}

struct ScopedSpec {
  std::string protocol, pa_full, key;
  uint32_t cus = 0, line_bytes = 0, l1_lines = 0, sfifo_entries = 0, pa_entries = 0,
           predictor_entries = 0, l2_banks = 0, l1_cycles = 0, l2_cycles = 0, hop_cycles = 0,
           jitter_cycles = 0;

  template <class V>
  void visit(V& v) {
    v.choice(protocol, "protocol", "srsp", {"cmp", "norsp", "brsp", "srsp", "srsp_opt"},
             "coherence implementation of scoped and remote synchronization (README.md)");
    v.param(cus, "cus", 4, Range{1, 256}, "", "compute units, one L1 each");
    v.param(line_bytes, "line_bytes", 64, Range{4, 64}, "bytes", "L1 and L2 line size");
    v.param(l1_lines, "l1_lines", 256, Range{1, 1u << 20}, "lines",
            "L1 capacity (16 kB of 64 B lines in the paper), fully associative LRU here");
    v.param(sfifo_entries, "sfifo_entries", 16, Range{1, 4096}, "entries",
            "L1 sFIFO of modified lines; the LR-TBL has as many entries");
    v.param(pa_entries, "pa_entries", 16, Range{1, 4096}, "entries",
            "PA-TBL entries (not given by the paper; seed-002 §3.4)");
    v.choice(pa_full, "pa_full", "eager", {"eager", "lazy"},
             "a selective invalidate that finds the PA-TBL full: eager = invalidate this L1 at "
             "once and insert; lazy = mark it overflowed, promoting every wg acquire until the "
             "next full invalidation");
    v.choice(key, "key", "line", {"line", "word"},
             "granularity of LR-TBL/PA-TBL keys: line (conservative) or 4-byte word");
    v.param(predictor_entries, "predictor_entries", 32, Range{1, 4096}, "entries",
            "srsp_opt: owner predictor entries per L1 (LRU)");
    v.param(l2_banks, "l2_banks", 16, Range{1, 1024}, "",
            "L2 banks, line-interleaved; messages to different banks are not ordered, which is "
            "what makes an early acknowledgement unsafe (P4)");
    v.param(l1_cycles, "l1_cycles", 4, Range{0, 1000}, "cycles", "L1 access latency");
    v.param(l2_cycles, "l2_cycles", 24, Range{0, 1000}, "cycles", "L2 access latency");
    v.param(hop_cycles, "hop_cycles", 2, Range{0, 1000}, "cycles",
            "one-way message latency between any two caches (crossbar)");
    v.param(jitter_cycles, "jitter_cycles", 12, Range{0, 100000}, "cycles",
            "each message and each thread's step waits up to this many extra cycles, drawn "
            "from the run's seed: how the litmus suite visits many schedules (messages "
            "between one pair of caches stay in order)");
  }
  void derive();

  Protocol proto() const { return parse_protocol(protocol); }
};

// Sabotage switches (seed-002 §6.7 D): each breaks one rule the protocol
// needs, so the litmus suite can show that it notices. Never on in a
// platform; `tlmgpu litmus --mutate NAME` turns one on.
struct Mutations {
  bool no_selflush = false;        // rem_acq sends no selective flush
  bool no_drain_to_marker = false; // a LR-TBL hit does not drain the sFIFO
  bool drop_dirty = false;         // invalidating a line drops its dirty bytes
  bool late_lock = false;          // L2 locks L after the selective flushes (P2)
  bool no_pa_insert = false;       // a selective invalidate arms no PA-TBL entry
  bool no_selinv_acks = false;     // rem_rel unlocks without waiting for acks (P3)
  bool early_ack = false;          // acks before in-flight write-backs land (P4)
  bool slot_pointers = false;      // LR-TBL markers are ring slots, not sequence numbers (P6)
  bool brsp_open_release = false;  // bRSP's rem_rel leaves L unlocked (as §1.7 states it)

  static const std::vector<std::string>& names();
  void set(const std::string& name); // throws ConfigError naming the choices
  bool any() const;
};

} // namespace tlmgpu::scoped
