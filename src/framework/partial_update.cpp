#include "tlmgpu/partial_update.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

// Sub partials accumulate the subtrahends with add: (m - a) - b = m - (a + b).
// Every other mergeable op is associative and commutative with itself.
AtomicOp merge_op(AtomicOp op) {
  return op == AtomicOp::Sub ? AtomicOp::Add : op;
}

uint64_t load_word(const uint8_t* p, unsigned n) {
  uint64_t v = 0;
  std::memcpy(&v, p, n); // little-endian host (checked in atomic_ops.cpp)
  return v;
}

} // namespace

bool partial_mergeable(AtomicOp op, DataType t) {
  switch (op) {
  case AtomicOp::Inc:
  case AtomicOp::Dec:
  case AtomicOp::Exch:
  case AtomicOp::Cas:
    return false;
  default:
    return atomic_supported(op, t) && atomic_identity(merge_op(op), t).has_value();
  }
}

bool commutative_red(const GpuAccess& a) {
  return a.kind == AccessKind::Red && a.order == MemOrder::Commutative &&
         a.scope == Scope::Device && partial_mergeable(a.op, a.type);
}

static_assert(static_cast<unsigned>(AtomicOp::Cas) < 16, "op id must fit in 4 bits");
uint32_t partial_meta(AtomicOp op, DataType t) {
  return static_cast<uint32_t>(op) | static_cast<uint32_t>(t) << 4;
}
AtomicOp partial_meta_op(uint32_t m) {
  return static_cast<AtomicOp>(m & 0xf);
}
DataType partial_meta_type(uint32_t m) {
  return static_cast<DataType>((m >> 4) & 0x7);
}

void check_partial_lanes(const GpuAccess& a, unsigned line_bytes, const char* who) {
  const unsigned n = size_of(a.type);
  for (unsigned i = 0; i < a.lanes.size(); ++i)
    if (a.lanes[i].offset % n != 0 || a.lanes[i].offset + n > line_bytes)
      throw std::logic_error(std::string(who) + ": lane " + std::to_string(i) + " offset " +
                             std::to_string(a.lanes[i].offset) + " misaligned or outside the line");
}

void init_partial_line(CacheLine& l, AtomicOp op, DataType t, unsigned line_bytes,
                       uint32_t meta_flags) {
  const uint64_t seed = *atomic_identity(merge_op(op), t);
  const unsigned n = size_of(t);
  for (unsigned off = 0; off < line_bytes; off += n)
    std::memcpy(&l.data[off], &seed, n);
  l.dirty_bytes.clear();
  l.meta = partial_meta(op, t) | meta_flags;
}

uint64_t merge_partial_lanes(CacheLine& l, const GpuAccess& a) {
  const unsigned n = size_of(a.type);
  const AtomicOp m = merge_op(a.op);
  uint64_t merged = 0;
  for (const LaneOp& lane : a.lanes) {
    if (l.dirty_bytes.test(lane.offset)) ++merged;
    apply_atomic(m, a.type, &l.data[lane.offset], lane.operand, 0);
    l.dirty_bytes.set_range(lane.offset, n);
  }
  return merged;
}

uint64_t drain_partial_line(const CacheLine& l, unsigned line_bytes, unsigned sector_bytes,
                            std::vector<PartialUpdatePacket>& out) {
  const DataType t = partial_meta_type(l.meta);
  const unsigned n = size_of(t);
  PartialUpdatePacket* cur = nullptr;
  uint64_t lanes = 0;
  for (unsigned off = 0; off < line_bytes; off += n) {
    if (!l.dirty_bytes.test(off)) continue;
    if (!cur || cur->lanes.size() == kPartialPacketLanes) {
      cur = &out.emplace_back();
      cur->line = l.line;
      cur->op = partial_meta_op(l.meta);
      cur->type = t;
    }
    const auto lane = static_cast<uint8_t>(cur->lanes.size());
    cur->lanes.push_back(
        LaneOp{static_cast<uint16_t>(off), lane, load_word(&l.data[off], n), 0, 0});
    cur->sector_mask |= uint32_t{1} << (off / sector_bytes);
    ++lanes;
  }
  return lanes;
}

GpuAccess partial_update_access(const PartialUpdatePacket& p) {
  GpuAccess a;
  a.kind = AccessKind::Red;
  a.op = p.op;
  a.type = p.type;
  a.order = MemOrder::Commutative;
  a.scope = Scope::Device;
  a.lanes = p.lanes;
  a.sector_mask = p.sector_mask;
  return a;
}

} // namespace tlmgpu
