// Buffered commutative partial updates, shared by the two mechanisms that
// perform device-scope commutative reductions near the SM instead of at L2:
// the LAB (models/lab) and PHI's update-only L1 lines (models/l1, seed-000
// "PHI"). Kernel-free.
//
// A partial line is a CacheLine whose words start at the identity of one
// (op, type); each buffered lane is merged into its word, `dirty_bytes` marks
// the words holding a partial value, and `meta` keeps the 4-bit op id and the
// data type. It leaves as one or more Red packets carrying, per touched word,
// the accumulated partial value as the operand (PartialUpdatePacket). Nothing
// is ever fetched: the buffer cannot know the old value of memory.
//
// Only ops with an identity merge (add, sub, min, max, and, or, xor): exch,
// cas, inc and dec are order-dependent (exch(a) then exch(b) is not any single
// exch of a combined operand; inc/dec wrap against the old value), so they are
// never buffered.
#pragma once

#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/types.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace tlmgpu {

// Partial values to perform at L2 as a Red: lane i applies its operand to the
// word at its offset. At most kPartialPacketLanes lanes; a line with more
// touched words becomes several packets. 32, not the warp width: a packet's
// size is the buffer's, whatever warps filled it (a 64 B line of 4 B words
// never splits).
constexpr unsigned kPartialPacketLanes = 32;
struct PartialUpdatePacket {
  Addr line = 0;
  AtomicOp op = AtomicOp::Add;
  DataType type = DataType::U32;
  LaneOps lanes;
  uint32_t sector_mask = 0; // sectors holding at least one lane (packet size)
};

// (op, type) pairs whose partial values combine.
bool partial_mergeable(AtomicOp op, DataType t);

// The strict eligibility rule both mechanisms share: a device-scope Red (no
// return value) with MemOrder::Commutative and a mergeable (op, type).
bool commutative_red(const GpuAccess& a);

// meta of a partial line: bits 0-3 the op id (the paper's 4-bit field), bits
// 4-6 the data type. Bits 8 and up are free for the owner (PHI's flag).
uint32_t partial_meta(AtomicOp op, DataType t);
AtomicOp partial_meta_op(uint32_t meta);
DataType partial_meta_type(uint32_t meta);

// Throws std::logic_error unless every lane of `a` is aligned to the type
// and inside a line of `line_bytes` (call before changing any state). `who`
// prefixes the message.
void check_partial_lanes(const GpuAccess& a, unsigned line_bytes, const char* who);

// Seeds every word of `l` with the identity of (op, type), clears the
// touched-word mask and sets meta = partial_meta(op, t) | meta_flags.
void init_partial_line(CacheLine& l, AtomicOp op, DataType t, unsigned line_bytes,
                       uint32_t meta_flags = 0);

// Merges `a`'s lanes into `l` (same op and type; lanes checked). Returns how
// many lanes landed on a word that already held a partial value.
uint64_t merge_partial_lanes(CacheLine& l, const GpuAccess& a);

// Appends `l`'s partial values as packets (in word order); returns the lanes.
uint64_t drain_partial_line(const CacheLine& l, unsigned line_bytes, unsigned sector_bytes,
                            std::vector<PartialUpdatePacket>& out);

// The Red access a packet travels as: kind Red, order Commutative, device
// scope, its lanes and sector mask.
GpuAccess partial_update_access(const PartialUpdatePacket& p);

} // namespace tlmgpu
