// Helpers shared by the LAB core tests: specs, requests and a flat reference
// memory that performs atomics with the same apply_atomic the L2 uses.
#pragma once

#include "models/lab/lab_core.hpp"
#include "tlmgpu/atomic_ops.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace labtest {

using namespace tlmgpu;

inline LabSpec spec(uint32_t entries, uint32_t ways = 8, const std::string& mode = "strict",
                    const std::string& variant = "normal", bool infinite = false,
                    uint32_t line_bytes = 128) {
  auto s = defaults<LabSpec>();
  s.entries = entries;
  s.ways = ways;
  s.mode = mode;
  s.variant = variant;
  s.infinite = infinite;
  s.line_bytes = line_bytes;
  s.derive();
  return s;
}

inline LabSpec inf_spec() {
  return spec(0, 8, "strict", "normal", true);
}

// A strict-eligible request: device-scope commutative Red.
inline GpuAccess red(AtomicOp op, DataType t,
                     const std::vector<std::pair<uint16_t, uint64_t>>& lanes) {
  GpuAccess a;
  a.kind = AccessKind::Red;
  a.op = op;
  a.type = t;
  a.order = MemOrder::Commutative;
  a.scope = Scope::Device;
  for (const auto& [off, operand] : lanes) {
    a.lanes.push_back(LaneOp{off, uint8_t(a.lanes.size()), operand, 0, 0});
  }
  return a;
}

struct Req {
  Addr line;
  GpuAccess a;
};

// Byte-addressed memory from address 0.
struct Mem {
  std::vector<uint8_t> bytes;
  explicit Mem(size_t n) : bytes(n) {}
  void apply(Addr line, AtomicOp op, DataType t, const LaneOp& l) {
    apply_atomic(op, t, &bytes.at(line + l.offset), l.operand, 0);
  }
  void apply(const LabEviction& e) {
    for (unsigned i = 0; i < e.lanes.size(); ++i)
      apply(e.line, e.op, e.type, e.lanes[i]);
  }
  void apply(const std::vector<LabEviction>& es) {
    for (const auto& e : es)
      apply(e);
  }
};

inline uint64_t counter(const StatGroup& g, const char* name) {
  auto* c = dynamic_cast<const Counter*>(g.find(name));
  return c ? c->value() : ~uint64_t{0};
}

} // namespace labtest
