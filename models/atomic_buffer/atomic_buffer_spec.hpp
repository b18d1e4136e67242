// Deterministic atomic buffering (DAB) parameters, read under the `dab.`
// group (Chou et al., "Deterministic Atomic Buffering", MICRO 2020, §IV;
// engineering notes seed-001 §3.1-3.3, §3.5-3.7, §3.10, §5.3, §10.3).
// See README.md for the model.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

// The paper's entry: 5 B address + 4 B argument + 1 B opcode and valid bit
// (notes §3.1). Used only for the area figure; the model keeps 8 B arguments
// so that 64-bit reds fit one entry (pitfall P9).
constexpr uint32_t kDabEntryBytes = 9;

// DAB is the Titan V design of the paper: a warp of 32 lanes, and flush
// requests of at most 32 ops. The platform refuses dab.level with 64-wide
// wavefronts (platform.cpp): the all-or-nothing insertion and the flush
// packing would both change meaning, and the paper gives no 64-lane design.
constexpr uint32_t kDabLanes = 32;

struct AtomicBufferSpec {
  uint32_t entries = 0, sector_bytes = 0, offset_index = 0, flush_start_cycles = 0,
           insert_cycles = 0, group_ctas = 0, group_buffers = 0, cluster_sms = 0;
  bool fusion = false, flush_coalescing = false, offset_flush = false, reorder = false,
       allow_overlap = false;
  std::string level, flush_granularity, order, keying, release_order;

  template <class V>
  void visit(V& v) {
    v.choice(level, "level", "none", {"none", "warp", "scheduler"},
             "none: no DAB (atomics go to L2 as in the baseline); warp: one buffer per warp "
             "slot (WarpGTO, §IV-B); scheduler: one buffer per warp scheduler (§IV-C)");
    v.param(entries, "entries", 64, Range{1, 65536}, "entries",
            "entries per buffer; at least the warp size (32) so that one warp instruction "
            "always fits. The paper evaluates 32/64/128/256 (scheduler level, headline 64) "
            "and 32 per warp (warp level)");
    v.choice(order, "order", "gwat", {"gwat", "gtar", "srr", "gtrr", "none"},
             "order of the ordered instructions (reds, value-returning atomics, device "
             "fences) of the warps sharing a buffer: gwat = a token passed in logical warp "
             "order (Greedy-With-Atomic-Token, §V-D); gtar = rounds: every warp of the ring "
             "waits at its next ordered instruction until all have arrived (or exited), then "
             "they issue in logical order (Greedy-Then-Atomic-Round-Robin, §V-C; the same "
             "sequence as gwat, other timing); srr = the token orders every instruction of "
             "the ring (Strict Round Robin, §V-A; other bits, still deterministic); gtrr = no "
             "order until every warp of the ring waits at its first ordered instruction (or "
             "exited), then srr for the rest of the kernel (Greedy-Then-Round-Robin, §V-B; "
             "srr's kind of bits, other timing); none = "
             "whatever the warp scheduler issues first (not deterministic with scheduler-level "
             "buffers: a negative control; warp-level buffers need no order)");
    v.choice(keying, "keying", "sm", {"sm", "group"},
             "what a buffer belongs to: sm = the SM's schedulers or warp slots, batches of the "
             "kernel's occupancy (the paper); group = the CTA groups of sm.cta_groups (CTA c in "
             "group c mod sm.cta_groups), each with dab.group_buffers buffers and batches of "
             "dab.group_ctas CTAs, so every red's order, and the bits, do not depend on "
             "sm.count (beyond the paper, issue 14 item 8; scheduler level only)");
    v.param(group_ctas, "group_ctas", 2, Range{1, 1024}, "CTAs",
            "keying group: CTAs of a group that share its buffers at once (a batch); every "
            "group an SM hosts must fit its batch at once: ceil(sm.cta_groups / sm.count) x "
            "group_ctas CTAs resident per SM");
    v.param(group_buffers, "group_buffers", 4, Range{1, 64}, "buffers",
            "keying group: buffers per CTA group; warp w of a CTA uses buffer w mod "
            "group_buffers (as w mod sm.schedulers at scheduler level)");
    v.param(insert_cycles, "insert_cycles", 1, Range{1, 1000}, "cycles",
            "cycles a red taken into a buffer occupies its warp (an ALU-like operation, P21)");
    v.param(flush_start_cycles, "flush_start_cycles", 20, Range{0, 100000}, "cycles",
            "from the last buffer becoming READY to the SMs starting to inject: the GPU-wide "
            "AND-reduction and the flush broadcast with its pre-flush messages (notes §5.3)");
    v.param(fusion, "fusion", true, Range{}, "",
            "atomic fusion (AF, §IV-E): a red to an address whose latest entry has the same "
            "op and type is merged into it (add, sub, min, max, and, or, xor)");
    v.param(flush_coalescing, "flush_coalescing", true, Range{}, "",
            "flush coalescing (§IV-F): the entries of one sector leave as one packet");
    v.param(sector_bytes, "sector_bytes", 32, Range{8, 256}, "bytes",
            "sector size for flush coalescing (power of two, at least one 8 B word)");
    v.param(offset_flush, "offset_flush", false, Range{}, "",
            "offset flushing (§VI-B2): buffers of even-numbered SMs start their flush at "
            "dab.offset_index and wrap around");
    v.param(offset_index, "offset_index", 32, Range{0, 65535}, "entries",
            "0-based entry index where even SMs start flushing (paper: 32, notes P18)");
    v.param(reorder, "reorder", true, Range{}, "",
            "reorder flush packets at each L2 sub-partition into round-robin SM order; "
            "false = DAB-NR (arrival order, not deterministic; limit study §VI-B4)");
    v.choice(release_order, "release_order", "round_robin", {"round_robin", "source_major"},
             "order in which a reorder unit applies an epoch's packets: round_robin = packet k "
             "of every source (SM, or CTA group under keying group) before packet k + 1 (the "
             "paper, §IV-D); source_major = every packet of source 0, then of source 1, ... "
             "(beyond the paper: a word's updates then come in (source, buffer order), which "
             "does not depend on how addresses map to L2 slices, so keying group gives the "
             "same bits on GPUs with other slice counts; more packets wait at the unit)");
    v.param(allow_overlap, "allow_overlap", false, Range{}, "",
            "DAB-NR-OF: flush e+1 may start before e's acks return (needs dab.reorder false)");
    v.choice(flush_granularity, "flush_granularity", "gpu", {"gpu", "cluster"},
             "gpu: all buffers of the GPU flush together; cluster: DAB-NR-CIF, each cluster "
             "flushes alone (needs dab.reorder false and dab.allow_overlap true)");
    v.param(cluster_sms, "cluster_sms", 2, Range{1, 1024}, "SMs",
            "SMs per compute cluster (SM s in cluster s / cluster_sms): the unit that flushes "
            "alone under flush_granularity = cluster (paper Table I: 40 clusters of 2 SMs)");
  }

  bool enabled() const { return level != "none"; }
  bool grouped() const { return enabled() && keying == "group"; }
  bool source_major() const { return release_order == "source_major"; }
  // Relaxed limit-study variants are not deterministic (§3.10).
  bool deterministic() const { return reorder && !allow_overlap && flush_granularity == "gpu"; }
  // Throws ConfigError naming the `dab.*` key of an impossible combination.
  void derive();
};

// Buffer storage per SM at kDabEntryBytes per entry: entries x (warp_slots
// or schedulers, by level); 0 when DAB is off (notes §3.1: 2,304 B for 4 x 64).
uint32_t dab_bytes_per_sm(const AtomicBufferSpec& s, uint32_t warp_slots, uint32_t schedulers);

} // namespace tlmgpu
