// Shared by the L2 core tests: a 4-set x 2-way slice of 128 B lines with
// 4 x 32 B sectors and 4-cycle atomic ops, and a counter lookup.
#pragma once

#include "models/l2/l2_core.hpp"

#include <catch2/catch.hpp>

namespace tlmgpu::test {

inline L2Spec small_spec(uint32_t atomics_per_cycle = 1) {
  auto s = defaults<L2Spec>();
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.ways = 2;
  s.sets = 4;
  s.slice_bytes = s.sets * s.ways * s.line_bytes;
  s.sectors_per_line = 4;
  s.atomic_latency = 4;
  s.atomics_per_cycle = atomics_per_cycle;
  return s;
}

inline uint64_t counter(const StatGroup& g, const char* name) {
  auto* c = dynamic_cast<const Counter*>(g.find(name));
  REQUIRE(c);
  return c->value();
}

} // namespace tlmgpu::test
