// Per-SM local atomic buffer (LAB), kernel-free (style rule 1). The SM owns
// the pipeline latency, the NoC injection and the flush triggers; see
// README.md. Paper: Dalmia et al., "Only Buffer When You Need To" §III;
// engineering notes seed-000 §1.3-1.8 and pitfalls 3-5, 22.
//
// Each line holds partial values of one (op, type): untouched words hold the
// op's identity, `dirty_bytes` marks the words holding a partial update and
// `meta` packs the 4-bit op id and the data type. A line is sent to L2 as a
// Red carrying the partial values when it is evicted (LRU), when a request
// with another op or type hits it, or at a flush. Nothing is ever fetched.
//
// Only ops with an identity merge (add, sub, min, max, and, or, xor): exch,
// cas, inc and dec are order-dependent (exch(a) then exch(b) is not any single
// exch of a combined operand; inc/dec wrap against the old value), so a LAB
// can never buffer them and they are never eligible.
//
// The LAB cannot know the old value of memory and never writes lanes'
// `result` fields. strict mode therefore never buffers value-returning
// atomics; paper_compatible does, and the SM answers them from the GPU's
// golden memory (golden_memory.hpp, seed-000 pitfall 4).
#pragma once

#include "models/lab/lab_spec.hpp"
#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/partial_update.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/types.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

// Partial values to perform at L2 as a Red (shared with PHI's update-only L1
// lines, include/tlmgpu/partial_update.hpp).
using LabEviction = PartialUpdatePacket;

struct LabOutcome {
  enum class Kind {
    Buffered, // performed in the LAB; the atomic completes after lab.latency
    Forward   // serialization_only: completes locally, `forward` goes to L2
  } kind = Kind::Buffered;
  bool hit = false;
  // Lines pushed out by this access (capacity or op mismatch), to send to L2
  // off the critical path; the entry is reused at once.
  std::vector<LabEviction> evictions;
  std::optional<LabEviction> forward;
};

class LabCore {
public:
  // `spec` must be derived; it is copied. Throws ConfigError on bad choices.
  LabCore(const LabSpec& spec, StatGroup& stats);

  bool enabled() const { return spec_.enabled(); }
  bool strict() const { return strict_; }
  bool serialization_only() const { return variant_ == Variant::SerializationOnly; }
  // false for the ANBF variant: the SM must not charge time for the kernel-end flush.
  bool flush_costs_time() const { return variant_ != Variant::NoFlushCost; }
  // Label for reports: paper_compatible results are optimistic (pitfall 4).
  std::string_view mode_label() const { return mode_label(spec_); }
  static std::string_view mode_label(const LabSpec& s);

  // True if `a` goes to the LAB: enabled, an RMW at device scope with a
  // mergeable (op, type), and in strict mode also a Red (no return value)
  // with MemOrder::Commutative. paper_compatible takes atomics and reds of
  // any order (value-returning ones need the golden memory).
  bool eligible(const GpuAccess& a) const;
  // (op, type) pairs whose partial values combine (see the file comment;
  // partial_mergeable in include/tlmgpu/partial_update.hpp).
  static bool mergeable(AtomicOp op, DataType t) { return partial_mergeable(op, t); }

  // Performs the lanes of `a` (eligible; `line` line-aligned; lane offsets
  // aligned to the type and inside the line). Throws std::logic_error otherwise.
  LabOutcome access(const GpuAccess& a, Addr line);
  // True if access(a, line) would send packets (a serialization_only forward,
  // an op-mismatch drain, an LRU victim); changes nothing. The SM stalls such
  // a request while its AT injection queue is full (lab.icnt_fail, notes §1.5).
  bool sends_on_access(const GpuAccess& a, Addr line) const;

  // Empties the buffer (kernel end, fences, releases): every valid line as
  // evictions, in set/way order (address order for Inf).
  std::vector<LabEviction> flush();
  bool empty() const;
  size_t occupancy() const;

private:
  enum class Variant { Normal, SerializationOnly, NoFlushCost };

  CacheLine* find(Addr line);
  CacheLine& install(Addr line, CacheLine* victim, bool* evicted);
  void apply_lanes(CacheLine& l, const GpuAccess& a);
  // Appends the line's partial values as evictions; returns the lane count.
  uint64_t drain(const CacheLine& l, std::vector<LabEviction>& out) const {
    return drain_partial_line(l, spec_.line_bytes, spec_.sector_bytes, out);
  }

  LabSpec spec_;
  bool strict_;
  bool fault_pending_ = true; // lab.inject_fault fires once
  Variant variant_;
  CacheArray array_;                        // finite LABs
  std::unordered_map<Addr, CacheLine> inf_; // LAB-Inf
  Counter &accesses_, &hits_, &misses_, &forwarded_, &buffered_lanes_, &merged_lanes_,
      &op_mismatch_evictions_, &capacity_evictions_, &evicted_lanes_, &flush_evictions_,
      &flushed_lanes_;
};

} // namespace tlmgpu
