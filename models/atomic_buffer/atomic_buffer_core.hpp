// One DAB atomic buffer (per warp slot or per warp scheduler), kernel-free
// (style rule 1). Paper: Chou et al., "Deterministic Atomic Buffering" §IV-B,
// §IV-C, §IV-E, §IV-F, §VI-B2; engineering notes seed-001 §3.1-3.3, §3.6-3.8,
// pitfalls P8, P9, P18. See README.md.
//
// Entries are (address, argument, op + type, valid), appended in insertion
// order and searched by address (the paper's CAM). One warp instruction's
// active lanes go in together or not at all, in ascending lane id; with
// fusion a lane whose address's latest entry has the same op and type is
// merged into it with the project's atomic semantics (apply_atomic), across
// warps too. drain() empties the buffer into flush packets in a fixed order
// that depends only on the buffer's contents and the SM id, never on time.
//
// What the caller (SM, schedulers, flush engine) must do, because only reds
// are buffered:
//  - Only no-return reductions (PTX `red`, or `atom` whose result is unused)
//    may be inserted. Value-returning atomics, atomic or volatile loads and
//    stores, fences (__threadfence), releases, CTA barriers (their CTA-scope
//    fence) and the kernel end are ordering points: the caller must take the
//    buffer through a GPU-wide flush (drain() here) before the operation is
//    performed (notes §2, §3.8; the "special entries" of P7 are not built).
//  - The order in which instructions reach insert() is the determinism
//    contract: the caller must present them in a deterministic order (warp
//    program order for a warp-level buffer; a determinism-aware scheduler's
//    token/round-robin order for a scheduler-level one, notes §3.4).
//  - A refused insert() sets the full bit; the warp must not issue the
//    instruction until a flush has drained the buffer, then retry it.
//  - Non-atomic loads and stores bypass the buffer entirely.
#pragma once

#include "models/atomic_buffer/atomic_buffer_spec.hpp"
#include "models/atomic_buffer/flush_packet.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/types.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

// One active lane of a warp's red instruction.
struct RedLane {
  uint8_t lane = 0; // SIMT lane id, 0..31, unique within the instruction
  Addr addr = 0;    // aligned to the data type's size
  uint64_t operand = 0;
};

class AtomicBufferCore {
public:
  struct Entry {
    Addr addr = 0;
    uint64_t arg = 0; // running partial value when fused; low bytes for 4 B types
    AtomicOp op = AtomicOp::Add;
    DataType type = DataType::F32;
    bool valid = false;
  };

  // `spec` must be derived and enabled; `sm_id` (the SM this buffer lives
  // in) selects the offset-flush start. Throws ConfigError otherwise.
  AtomicBufferCore(const AtomicBufferSpec& spec, uint32_t sm_id, StatGroup& stats);

  // Reds PTX has (add, sub, min, max, inc, dec, and, or, xor) on a type the
  // GPU supports; exch and cas only exist as value-returning atomics.
  static bool bufferable(AtomicOp op, DataType t);
  // Ops that merge with themselves (partial_mergeable: no inc/dec). Float
  // add/sub fusion changes rounding ((m + a) + b vs m + (a + b)) but stays
  // deterministic, as the insertion order is (notes §3.6).
  static bool fusible(AtomicOp op, DataType t);

  // True if insert() of these lanes would succeed now; changes nothing.
  bool fits(AtomicOp op, DataType t, std::span<const RedLane> lanes) const;
  // All-or-nothing insertion of one warp instruction, lanes in ascending
  // lane id whatever order they are given in. Returns false, inserts nothing
  // and sets the full bit if the lanes need more free entries than there are.
  // Throws std::invalid_argument (before any change) for an op that is not
  // bufferable, a misaligned address, more than 32 lanes or a repeated lane.
  bool insert(AtomicOp op, DataType t, std::span<const RedLane> lanes);

  // Empties the buffer (clearing the full bit) and returns its flush packets:
  // entries from the start index (offset_index on even SMs with offset
  // flushing, else 0) around the physical slots; with coalescing, one packet
  // per sector in order of the sector's first entry, ops in entry order.
  // Entries of one address always leave in insertion order. Headers are left
  // for number_flush_stream().
  std::vector<FlushPacket> drain();

  bool empty() const { return used_ == 0; }
  // The full bit: an insert was refused since the last drain (READY(FULL),
  // notes §3.5.1). used() == capacity() alone does not set it: a fusing
  // instruction may still fit.
  bool full() const { return full_; }
  uint32_t used() const { return used_; }
  uint32_t capacity() const { return static_cast<uint32_t>(entries_.size()); }
  uint32_t flush_start() const { return flush_start_; }
  const Entry& entry(uint32_t i) const { return entries_.at(i); }

private:
  struct Lanes {
    std::array<RedLane, kDabLanes> v{};
    unsigned n = 0;
  };
  // Validated, sorted by lane id; throws std::invalid_argument.
  static Lanes ordered(AtomicOp op, DataType t, std::span<const RedLane> lanes);
  const Entry* fusion_target(Addr addr, AtomicOp op, DataType t) const;
  uint32_t entries_needed(AtomicOp op, DataType t, const Lanes& ls) const;
  std::vector<uint32_t> drain_order() const;

  const bool fusion_, coalescing_;
  const uint32_t sector_bytes_, flush_start_;
  std::vector<Entry> entries_;
  uint32_t used_ = 0;
  bool full_ = false;
  // Address -> index of its latest entry (the fusion target, P8). Only
  // looked up, never iterated, so its order cannot leak into the drain.
  std::unordered_map<Addr, uint32_t> latest_;
  Counter &inserts_, &inserted_lanes_, &appended_entries_, &fused_lanes_, &refused_inserts_,
      &full_events_, &flushes_, &packets_, &flushed_entries_;
};

} // namespace tlmgpu
