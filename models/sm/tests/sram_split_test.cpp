// Unified-SRAM split per kernel: shared memory step, L1, LAB carve-out.
#include "models/sm/sram_split.hpp"

#include "models/lab/lab_spec.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

namespace {
constexpr uint32_t KB = 1024;

L1Spec l1(const std::string& carveout) {
  L1Spec s; // Titan V geometry: 4 sets x 64 ways x 128 B = 32 KB
  s.bytes = 32 * KB;
  s.ways = 64;
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.carveout = carveout;
  s.derive();
  return s;
}
SramClaim lab(uint32_t entries, bool inf = false) {
  LabSpec s;
  s.entries = entries;
  s.infinite = inf;
  s.ways = 8;
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.mode = "strict";
  s.variant = "normal";
  s.derive();
  return lab_sram_claim(s);
}
uint32_t left(const L1Spec& a, const SramClaim& b, uint32_t smem) {
  return sram_split(a, b, smem, 128 * KB).l1_bytes;
}
} // namespace

TEST_CASE("sram split: Volta adaptive steps and LAB ways", "[sm][sram]") {
  const L1Spec a = l1("volta_adaptive");
  CHECK(left(a, lab(0), 0) == 128 * KB);
  CHECK(sram_split(a, lab(0), 0, 128 * KB).l1_ways == 256);
  CHECK(left(a, lab(8), 0) == 127 * KB); // LAB-8 = 1 KB = 2 ways of 4 x 128 B
  CHECK(sram_split(a, lab(8), 0, 128 * KB).l1_ways == 254);
  CHECK(left(a, lab(8), 1) == 119 * KB);
  CHECK(left(a, lab(8), 8 * KB) == 119 * KB);
  CHECK(left(a, lab(8), 8 * KB + 1) == 111 * KB);
  CHECK(left(a, lab(8), 20 * KB) == 95 * KB);
  CHECK(left(a, lab(8), 40 * KB) == 63 * KB);
  CHECK(left(a, lab(8), 96 * KB) == 31 * KB);
  const SramSplit s = sram_split(a, lab(64), 48 * KB, 128 * KB);
  CHECK(s.smem_bytes == 64 * KB);
  CHECK(s.claimed_bytes == 8 * KB);
  CHECK(s.l1_bytes == 56 * KB);
  CHECK(left(a, lab(256), 96 * KB) == 0); // LAB-256 takes the whole 32 KB L1
  CHECK(sram_split(a, lab(256), 96 * KB, 128 * KB).l1_ways == 0);
  CHECK(left(a, lab(0, true), 0) == 128 * KB); // LAB-Inf takes nothing
  CHECK_THROWS_AS(left(a, lab(8), 96 * KB + 1), ConfigError);
  CHECK_THROWS_WITH(left(a, lab(512), 96 * KB), Catch::Contains("lab.entries"));
}

TEST_CASE("sram split: fixed L1 (Table I literal)", "[sm][sram]") {
  const L1Spec f = l1("fixed");
  CHECK(left(f, lab(0), 0) == 32 * KB);
  CHECK(left(f, lab(64), 0) == 24 * KB); // same as the Cache-8KB baseline's L1
  CHECK(sram_split(f, lab(64), 0, 128 * KB).smem_bytes == 96 * KB);
  CHECK(left(f, lab(256), 96 * KB) == 0);
  CHECK_THROWS_AS(left(f, lab(512), 0), ConfigError);
  CHECK_THROWS_WITH(left(f, lab(8), 96 * KB + 1), Catch::Contains("l1.carveout = fixed"));
}

TEST_CASE("sram split: cache-size baselines", "[sm][sram]") {
  L1Spec f = l1("fixed");
  f.carveout_adjust_bytes = -8 * int32_t(KB);
  CHECK(left(f, lab(0), 0) == 24 * KB); // Cache-8KB
  f.carveout_adjust_bytes = 8 * KB;
  CHECK(left(f, lab(0), 0) == 40 * KB); // Cache+8KB
  f.carveout_adjust_bytes = 0;
  f.size_factor = 2;
  CHECK(left(f, lab(0), 0) == 64 * KB); // Cache*2
  f.size_factor = 1;
  f.carveout_adjust_bytes = -40 * int32_t(KB);
  CHECK_THROWS_WITH(left(f, lab(0), 0), Catch::Contains("l1.carveout_adjust_bytes"));
}
