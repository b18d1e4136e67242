// Helpers shared by the DAB core tests: specs, lanes, and a sparse reference
// memory that applies flush ops with the same apply_atomic the L2 uses.
#pragma once

#include "models/atomic_buffer/atomic_buffer_core.hpp"
#include "models/atomic_buffer/reorder_unit_core.hpp"
#include "tlmgpu/atomic_ops.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace dabtest {

using namespace tlmgpu;

struct SpecOpts {
  uint32_t entries = 64;
  bool fusion = false, coalescing = false, offset = false, reorder = true, overlap = false;
};

inline AtomicBufferSpec spec(const SpecOpts& o) {
  auto s = defaults<AtomicBufferSpec>();
  s.level = "scheduler";
  s.entries = o.entries;
  s.fusion = o.fusion;
  s.flush_coalescing = o.coalescing;
  s.offset_flush = o.offset;
  s.reorder = o.reorder;
  s.allow_overlap = o.overlap;
  s.derive();
  return s;
}

inline uint64_t f32(float x) {
  return std::bit_cast<uint32_t>(x);
}
inline float as_f32(uint64_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits));
}

// One lane per address, lane ids 0.. in order.
inline std::vector<RedLane> lanes(const std::vector<Addr>& addrs, uint64_t operand = 1) {
  std::vector<RedLane> out;
  for (size_t i = 0; i < addrs.size(); ++i)
    out.push_back({static_cast<uint8_t>(i), addrs[i], operand});
  return out;
}

// Entry addresses of a drain, packet by packet, op by op.
inline std::vector<Addr> addrs_of(const std::vector<FlushPacket>& ps) {
  std::vector<Addr> out;
  for (const auto& p : ps)
    for (const auto& op : p.ops)
      out.push_back(op.addr);
  return out;
}

// Sparse byte memory, zero-initialised; keyed by 8-byte block.
struct Mem {
  std::map<Addr, uint64_t> words;
  void apply(const FlushOp& op) {
    const Addr block = op.addr & ~Addr{7};
    uint8_t* p = reinterpret_cast<uint8_t*>(&words[block]) + (op.addr - block);
    apply_atomic(op.op, op.type, p, op.operand, 0);
  }
  void apply(const FlushPacket& p) {
    for (const auto& op : p.ops)
      apply(op);
  }
  bool operator==(const Mem& o) const = default;
};

inline uint64_t counter(const StatGroup& g, const char* name) {
  auto* c = dynamic_cast<const Counter*>(g.find(name));
  return c ? c->value() : ~uint64_t{0};
}

} // namespace dabtest
