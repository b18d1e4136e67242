// The SCU's operations on hand-made vectors against the direct reference,
// and its coalescing unit (seed-003 §2.2, §2.3).
#include "models/scu/scu_core.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>

using namespace tlmgpu;

namespace {

// A sparse byte memory with u32 vectors placed at chosen addresses.
struct Mem {
  std::map<Addr, uint8_t> bytes;
  void put(Addr base, const std::vector<uint32_t>& v) {
    for (size_t i = 0; i < v.size(); ++i)
      for (int b = 0; b < 4; ++b)
        bytes[base + 4 * i + b] = uint8_t(v[i] >> (8 * b));
  }
  ByteReader reader() const {
    return [this](Addr a, void* d, size_t n) {
      auto* p = static_cast<uint8_t*>(d);
      for (size_t i = 0; i < n; ++i) {
        auto it = bytes.find(a + i);
        p[i] = it == bytes.end() ? 0 : it->second;
      }
    };
  }
};

std::vector<uint32_t> words(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> w(b.size() / 4);
  if (!w.empty()) std::memcpy(w.data(), b.data(), w.size() * 4); // data() may be null when empty
  return w;
}

// Runs `c` through ScuCore chunk by chunk (vector_fifo_bytes small, so
// several chunks) and returns the output words; also checks it against the
// reference.
std::vector<uint32_t> run(const ScuCommand& c, const Mem& m, uint32_t fifo = 64) {
  ScuCore core(c, 128, 4, 32, 4, fifo);
  std::vector<uint8_t> out;
  for (uint64_t k = 0; k < core.chunks(); ++k) {
    auto e = core.elements(k, m.reader());
    auto o = core.output(k, e, m.reader());
    out.insert(out.end(), o.begin(), o.end());
  }
  REQUIRE(out == scu_reference(c, m.reader()));
  return words(out);
}

constexpr Addr D = 0x10000, M = 0x20000, I = 0x30000, C = 0x40000;

// A data compaction of n elements (128 B lines, width 4, 32 entries): its
// coalescing unit.
ScuCore data_core(uint64_t n, uint32_t merge = 4) {
  ScuCommand c;
  c.op = ScuOp::Data, c.n = n, c.data = D, c.mask = M, c.out = 0x90000;
  return ScuCore(c, 128, 4, 32, merge, 4096);
}

} // namespace

TEST_CASE("SCU bitmask constructor compares each element with the reference", "[scu]") {
  Mem m;
  m.put(D, {5, 7, 5, 1, 9});
  ScuCommand c;
  c.op = ScuOp::Bitmask, c.n = 5, c.data = D, c.out = 0x90000, c.ref = 5;
  c.cmp = ScuCmp::Eq;
  REQUIRE(run(c, m) == std::vector<uint32_t>{1, 0, 1, 0, 0});
  c.cmp = ScuCmp::Gt;
  REQUIRE(run(c, m) == std::vector<uint32_t>{0, 1, 0, 0, 1});
}

TEST_CASE("SCU data and access compaction keep masked elements in order", "[scu]") {
  Mem m;
  std::vector<uint32_t> data(100), mask(100), index(100);
  for (uint32_t i = 0; i < 100; ++i)
    data[i] = 1000 + i, mask[i] = i % 3 == 0, index[i] = 99 - i;
  m.put(D, data), m.put(M, mask), m.put(I, index);
  ScuCommand c;
  c.op = ScuOp::Data, c.n = 100, c.data = D, c.mask = M, c.out = 0x90000;
  auto out = run(c, m);
  REQUIRE(out.size() == 34);
  REQUIRE((out[0] == 1000 && out[1] == 1003 && out.back() == 1099));
  c.op = ScuOp::Access, c.index = I;
  out = run(c, m);
  REQUIRE((out.size() == 34 && out[0] == 1099 && out[1] == 1096));
}

TEST_CASE("SCU edge cases: empty input, everything masked off", "[scu]") {
  Mem m;
  m.put(D, {1, 2, 3}), m.put(M, {0, 0, 0});
  ScuCommand c;
  c.op = ScuOp::Data, c.n = 0, c.data = D, c.mask = M, c.out = 0x90000;
  REQUIRE(run(c, m).empty());
  c.n = 3;
  REQUIRE(run(c, m).empty());
}

TEST_CASE("SCU replication and access-expansion (CSR neighbour lists)", "[scu]") {
  Mem m;
  m.put(D, {7, 8, 9});
  m.put(C, {2, 0, 3});
  ScuCommand c;
  c.op = ScuOp::Replication, c.n = 3, c.data = D, c.count = C, c.out = 0x90000;
  REQUIRE(run(c, m) == std::vector<uint32_t>{7, 7, 9, 9, 9});
  // A long expansion: 3 rows of a CSR with 0, 300 and 5 neighbours.
  std::vector<uint32_t> col(305);
  for (uint32_t i = 0; i < 305; ++i)
    col[i] = i * 3;
  m.put(0x50000, col);
  m.put(I, {0, 0, 300});
  m.put(C, {0, 300, 5});
  ScuCommand x;
  x.op = ScuOp::AccessExpansion, x.n = 3, x.data = 0x50000, x.index = I, x.count = C,
  x.out = 0x90000;
  auto out = run(x, m, 8); // one element per chunk
  REQUIRE(out.size() == 305);
  REQUIRE((out[0] == 0 && out[299] == 897 && out[300] == 900));
}

TEST_CASE("SCU coalescing: an in-flight read serves up to `merge` groups of its line", "[scu]") {
  const ScuCore core = data_core(64);
  std::vector<ScuElement> e;
  for (uint32_t i = 0; i < 64; ++i)
    e.push_back({D + 4 * i, 1}); // two 128 B lines
  auto r = core.data_requests(e);
  // 16 groups of 4 elements, 8 per line; 4 groups per read: 2 reads per line.
  REQUIRE(r.size() == 4);
  REQUIRE((r[0].line == D && r[0].groups == 4 && r[1].line == D));
  REQUIRE(data_core(64, 8).data_requests(e).size() == 2); // merge 8: one read per line
  // Scattered elements: one read each.
  std::vector<ScuElement> s;
  for (uint32_t i = 0; i < 10; ++i)
    s.push_back({D + 4096 * i, 1});
  REQUIRE(core.data_requests(s).size() == 10);
}

TEST_CASE("SCU coalescing fed slice by slice gives what one call gives", "[scu]") {
  // Element-granular streaming feeds the coalescer a vector line's elements
  // at a time; slices that split a cycle's group must not change the reads.
  const ScuCore core = data_core(200);
  std::vector<ScuElement> e;
  for (uint32_t i = 0; i < 200; ++i)
    e.push_back({D + 4 * ((i * 37) % 97) + 4096 * (i % 3), 1});
  ScuCoalescer co = core.coalescer();
  size_t added = 0;
  for (size_t from = 0; from < e.size(); from += 7) { // 7: not a multiple of the width
    const std::vector<ScuElement> piece(e.begin() + from, e.begin() + std::min(e.size(), from + 7));
    added += co.add(piece, from + 7 >= e.size());
  }
  const auto whole = core.data_requests(e);
  REQUIRE(added == whole.size());
  for (size_t i = 0; i < whole.size(); ++i) {
    INFO("request " << i);
    REQUIRE((co.requests()[i].line == whole[i].line && co.requests()[i].groups == whole[i].groups));
  }
}

TEST_CASE("SCU vector lines come slice by slice, each once", "[scu]") {
  // Mask and index of 64 elements (two 128 B lines each; the index vector
  // not line-aligned): slice 0's lines of both vectors before slice 1's.
  ScuCommand c;
  c.op = ScuOp::Access, c.n = 64, c.data = D, c.mask = M, c.index = I + 8, c.out = 0x90000;
  ScuCore core(c, 128, 4, 32, 4, 4096);
  REQUIRE(core.vector_lines(0) == std::vector<Addr>{M, I, I + 128, M + 128, I + 256});
  REQUIRE(core.vector_lines(32, 64) == std::vector<Addr>{M + 128, I + 128, I + 256});
}

TEST_CASE("SCU commands are checked", "[scu]") {
  ScuCommand c;
  c.op = ScuOp::Access, c.n = 1, c.data = D, c.mask = M, c.out = 0x90000;
  REQUIRE(c.problem().find("index") != std::string::npos);
  c.elem_bytes = 3;
  REQUIRE(c.problem().find("elem_bytes") != std::string::npos);
}

TEST_CASE("SCU unique filter: duplicates dropped while held, never a first sighting", "[scu]") {
  std::vector<uint8_t> set(4 * 4, 0xff); // 4 ways, empty
  uint8_t victim = 0;
  REQUIRE(scu_unique_filter(7, set.data(), 4, &victim));
  REQUIRE(!scu_unique_filter(7, set.data(), 4, &victim)); // duplicate
  for (uint32_t x : {8u, 9u, 10u})
    REQUIRE(scu_unique_filter(x, set.data(), 4, &victim));
  // Full: 11 evicts way 0 (7) round robin; 7 then passes again (a false
  // negative the kernels tolerate), evicting way 1 (8).
  REQUIRE(scu_unique_filter(11, set.data(), 4, &victim));
  REQUIRE(scu_unique_filter(7, set.data(), 4, &victim));
  REQUIRE(!scu_unique_filter(11, set.data(), 4, &victim));
  REQUIRE(!scu_unique_filter(9, set.data(), 4, &victim));
  // No false positive over many values: each first sighting is kept.
  std::vector<uint8_t> big(16 * 4, 0xff);
  uint8_t v2 = 0;
  for (uint32_t x = 100; x < 1000; ++x)
    REQUIRE(scu_unique_filter(x, big.data(), 16, &v2));
}

TEST_CASE("SCU filter commands key 4-byte elements, with a whole table or none", "[scu]") {
  ScuCommand c;
  c.op = ScuOp::Data, c.n = 1, c.data = D, c.mask = M, c.out = 0x90000;
  c.filter = ScuFilter::Unique;
  REQUIRE(c.problem().empty()); // no table: the ISCU's filter (scu.filter_unit = iru)
  c.hash.base = 0x100000;
  REQUIRE(c.problem().find("hash") != std::string::npos);
  c.hash.sets = 4;
  REQUIRE(c.problem().empty());
  c.op = ScuOp::Bitmask;
  REQUIRE(!c.problem().empty());
}

TEST_CASE("SCU best-cost filter: keeps a first sighting and every lower cost", "[scu]") {
  std::vector<uint8_t> set(8 * 2, 0xff); // 2 ways of (ID, cost)
  uint8_t victim = 0;
  REQUIRE(scu_best_cost_filter(7, 50, set.data(), 2, &victim));  // empty: insert
  REQUIRE(!scu_best_cost_filter(7, 50, set.data(), 2, &victim)); // equal: no gain
  REQUIRE(!scu_best_cost_filter(7, 60, set.data(), 2, &victim)); // worse
  REQUIRE(scu_best_cost_filter(7, 40, set.data(), 2, &victim));  // better: overwrite
  REQUIRE(!scu_best_cost_filter(7, 45, set.data(), 2, &victim)); // 40 is stored now
  REQUIRE(scu_best_cost_filter(8, 90, set.data(), 2, &victim));
  REQUIRE(scu_best_cost_filter(9, 10, set.data(), 2, &victim)); // full: evicts way 0 (7)
  REQUIRE(scu_best_cost_filter(7, 45, set.data(), 2, &victim)); // forgotten: passes again
  // Random streams: an element is dropped only after one with its ID and a
  // cost at most its own passed (no distance lost); with room for every ID,
  // exactly the strict improvements pass.
  for (uint32_t ways : {2u, 16u}) {
    std::vector<uint8_t> s(8 * ways, 0xff);
    uint8_t v = 0;
    std::map<uint32_t, uint32_t> best_kept, best_seen;
    uint32_t seed = 12345;
    for (int i = 0; i < 4000; ++i) {
      seed = seed * 1103515245u + 12345u;
      const uint32_t id = (seed >> 8) % 12, cost = (seed >> 16) % 100;
      const bool kept = scu_best_cost_filter(id, cost, s.data(), ways, &v);
      const bool improves = !best_seen.count(id) || cost < best_seen[id];
      if (!kept) REQUIRE((best_kept.count(id) && best_kept[id] <= cost));
      if (ways == 16) REQUIRE(kept == improves);
      if (kept && (!best_kept.count(id) || cost < best_kept[id])) best_kept[id] = cost;
      if (improves) best_seen[id] = cost;
    }
  }
}

TEST_CASE("SCU best-cost and generate/apply commands are checked", "[scu]") {
  ScuCommand c;
  c.op = ScuOp::AccessExpansion, c.n = 1, c.data = D, c.index = I, c.count = C, c.out = 0x90000;
  c.filter = ScuFilter::BestCost;
  REQUIRE(c.problem().find("cost vector") != std::string::npos);
  c.cost = 0x50000;
  REQUIRE(c.problem().empty()); // no table: the ISCU's case (the module refuses it)
  c.hash.base = 0x100000, c.hash.sets = 4;
  REQUIRE(c.problem().find("entry_bytes must be 8") != std::string::npos);
  c.hash.entry_bytes = 8;
  REQUIRE(c.problem().empty());
  c.apply = 0x60000;
  REQUIRE(c.problem().find("apply") != std::string::npos);
  c.apply = 0, c.filter = ScuFilter::None;
  REQUIRE(c.problem().find("cost") != std::string::npos); // costs without the filter
  c.cost = 0, c.generate = true;
  REQUIRE(c.problem().find("generate") != std::string::npos);
  c.generate = false, c.cost_out = 0x70000; // the ISCU's costs: inline best-cost only
  REQUIRE(c.problem().find("cost_out") != std::string::npos);
  c.filter = ScuFilter::BestCost, c.cost = 0x50000;
  REQUIRE(c.problem().empty());
}

TEST_CASE("SCU apply: a filter vector drops elements of the unfiltered output", "[scu]") {
  Mem m;
  m.put(D, {10, 11, 12, 13, 14, 15});
  m.put(I, {0, 3});
  m.put(C, {3, 2}); // expansion: 10 11 12 13 14
  m.put(0x60000, {1, 0, 1, 0, 1});
  ScuCommand c;
  c.op = ScuOp::AccessExpansion, c.n = 2, c.data = D, c.index = I, c.count = C, c.out = 0x90000;
  c.apply = 0x60000;
  ScuCore core(c, 128, 4, 32, 4, 64);
  const auto e = core.applied(core.elements(0, m.reader()), 0, m.reader());
  REQUIRE(words(core.output(0, e, m.reader())) == std::vector<uint32_t>{10, 12, 14});
  REQUIRE(words(scu_reference(c, m.reader())) == std::vector<uint32_t>{10, 12, 14});
  // Replication: each copy has its own flag (rows 10 x3, 11 x2).
  c.op = ScuOp::Replication, c.index = 0;
  REQUIRE(words(scu_reference(c, m.reader())) == std::vector<uint32_t>{10, 10, 11});
  ScuCore rep(c, 128, 4, 32, 4, 64);
  const auto r = rep.applied(rep.elements(0, m.reader()), 0, m.reader());
  REQUIRE(words(rep.output(0, r, m.reader())) == std::vector<uint32_t>{10, 10, 11});
}
