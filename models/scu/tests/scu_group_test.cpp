// The grouping probe of the Filtering/Grouping unit (seed-003 §2.6) and the
// gather list's reference semantics.
#include "models/scu/scu_core.hpp"
#include "models/scu/scu_group.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>

using namespace tlmgpu;

namespace {
// A table of `sets` sets of `ways` 32-byte entries, all empty.
struct Table {
  uint32_t sets, ways;
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> victim;
  Table(uint32_t s, uint32_t w) : sets(s), ways(w), bytes(size_t(s) * w * 32, 0xff), victim(s) {}
  void insert(uint32_t block, uint32_t pos, std::vector<uint32_t>& emit) {
    const uint32_t s = block % sets;
    scu_group_insert(block, pos, bytes.data() + size_t(s) * ways * 32, ways, 32, &victim[s], emit);
  }
  void flush(std::vector<uint32_t>& emit) {
    for (uint32_t s = 0; s < sets; ++s)
      scu_group_flush(bytes.data() + size_t(s) * ways * 32, ways, 32, emit);
  }
};
} // namespace

TEST_CASE("SCU grouping: same-block elements leave together", "[scu]") {
  Table t(1, 2);
  std::vector<uint32_t> emit;
  t.insert(5, 0, emit);
  t.insert(9, 1, emit);
  t.insert(5, 2, emit);
  REQUIRE(emit.empty());
  t.insert(7, 3, emit); // set full: the round-robin victim (way 0, block 5) leaves
  REQUIRE(emit == std::vector<uint32_t>{0, 2});
  for (uint32_t p = 4; p < 11; ++p) // block 9 reaches 7 elements: emitted, freed
    t.insert(9, p, emit);
  REQUIRE(emit == std::vector<uint32_t>{0, 2, 1, 4, 5, 6, 7, 8, 9});
  t.insert(9, 11, emit);
  t.flush(emit); // what is left, way by way: block 7 (way 0), block 9 (way 1)
  REQUIRE(emit == std::vector<uint32_t>{0, 2, 1, 4, 5, 6, 7, 8, 9, 3, 10, 11});
  std::vector<uint32_t> none;
  t.flush(none);
  REQUIRE(none.empty()); // the table is left empty
}

TEST_CASE("SCU grouping: a permutation; with room for every block, runs of up to 7", "[scu]") {
  std::mt19937 rng(3);
  for (uint32_t sets : {1u, 4u, 64u}) {
    Table t(sets, 4);
    std::vector<uint32_t> blocks(500), emit;
    std::map<uint32_t, uint32_t> per_block;
    for (uint32_t i = 0; i < blocks.size(); ++i) {
      blocks[i] = rng() % 40;
      ++per_block[blocks[i]];
      t.insert(blocks[i], i, emit);
    }
    t.flush(emit);
    std::vector<uint32_t> sorted = emit;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < sorted.size(); ++i)
      REQUIRE(sorted[i] == i); // every element exactly once
    if (sets < 64) continue;   // 64 sets x 4 ways hold the 40 blocks: no evictions
    uint32_t runs = 1, bound = 0;
    for (size_t k = 1; k < emit.size(); ++k)
      runs += blocks[emit[k]] != blocks[emit[k - 1]];
    for (auto [b, n] : per_block)
      bound += (n + 6) / 7;
    REQUIRE(runs <= bound);
  }
}

TEST_CASE("SCU gather list: the reference writes the output in its order", "[scu]") {
  std::map<Addr, uint8_t> mem;
  auto put = [&](Addr base, const std::vector<uint32_t>& v) {
    for (size_t i = 0; i < v.size(); ++i)
      for (int b = 0; b < 4; ++b)
        mem[base + 4 * i + b] = uint8_t(v[i] >> (8 * b));
  };
  put(0x1000, {10, 11, 12, 13, 14});
  put(0x2000, {0, 3});
  put(0x3000, {3, 2});
  put(0x4000, {4, 0, 2, 1, 3});
  const ByteReader rd = [&](Addr a, void* d, size_t n) {
    for (size_t i = 0; i < n; ++i)
      static_cast<uint8_t*>(d)[i] = mem.count(a + i) ? mem[a + i] : 0;
  };
  ScuCommand c;
  c.op = ScuOp::AccessExpansion, c.n = 2, c.data = 0x1000, c.index = 0x2000, c.count = 0x3000;
  c.out = 0x9000, c.order = 0x4000;
  std::vector<uint8_t> out = scu_reference(c, rd);
  std::vector<uint32_t> w(out.size() / 4);
  std::memcpy(w.data(), out.data(), out.size());
  REQUIRE(w == std::vector<uint32_t>{14, 10, 12, 11, 13});
  // With a filter vector over the plain output (notes P12): plain positions
  // 1 and 3 (11 and 13) dropped, the rest in the gathered order.
  put(0x5000, {1, 0, 1, 0, 1});
  c.apply = 0x5000;
  out = scu_reference(c, rd);
  w.resize(out.size() / 4);
  std::memcpy(w.data(), out.data(), out.size());
  REQUIRE(w == std::vector<uint32_t>{14, 10, 12});
}

TEST_CASE("SCU grouping commands are checked", "[scu]") {
  ScuCommand c;
  c.op = ScuOp::AccessExpansion, c.n = 1, c.data = 0x1000, c.index = 0x2000, c.count = 0x3000;
  c.out = 0x9000, c.group = true;
  REQUIRE(c.problem().find("generate") != std::string::npos);
  c.generate = true;
  REQUIRE(c.problem().find("group_target") != std::string::npos);
  c.group_target = 0x5000;
  REQUIRE(c.problem().find("hash table") != std::string::npos);
  c.hash.base = 0x8000, c.hash.sets = 4, c.hash.ways = 4, c.hash.entry_bytes = 32;
  REQUIRE(c.problem().empty());
  c.order = 0x4000;
  REQUIRE(!c.problem().empty());
  c.group = c.generate = false;
  REQUIRE(c.problem().empty()); // a plain compaction applying a gather list
  c.apply = 0x6000;
  REQUIRE(c.problem().empty()); // and a filter vector (notes P12)
  c.filter = ScuFilter::Unique; // but no inline filter
  REQUIRE(!c.problem().empty());
}

TEST_CASE("SCU sum reduction commands are checked (the ISCU's PageRank filter)", "[scu]") {
  ScuCommand c;
  c.op = ScuOp::AccessExpansion, c.n = 1, c.data = 0x1000, c.index = 0x2000, c.count = 0x3000;
  c.out = 0x9000, c.filter = ScuFilter::Sum;
  REQUIRE(c.problem().find("sum reduction") != std::string::npos); // no weights
  c.cost_add = 0x4000, c.cost_out = 0x5000;
  REQUIRE(c.problem().empty());
  c.generate = true; // inline only: the sums go to cost_out
  REQUIRE(!c.problem().empty());
  c.generate = false, c.cost = 0x6000;
  REQUIRE(c.problem().find("sum reduction") != std::string::npos);
}
