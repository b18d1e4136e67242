// L2 slice core: 4 sets x 2 ways x 128 B lines of 4 x 32 B sectors, so lines
// 0x000, 0x200 and 0x400 share set 0. Atomic unit: 4-cycle ops, 1 per cycle.
#include "models/l2/tests/l2_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>

using namespace tlmgpu;
using tlmgpu::test::counter;
using tlmgpu::test::small_spec;

namespace {

double formula(const StatGroup& g, const char* name) {
  auto* f = dynamic_cast<const Formula*>(g.find(name));
  REQUIRE(f);
  return f->value();
}

struct Line {
  std::array<uint8_t, 128> b{};
  explicit Line(uint8_t fill = 0) { b.fill(fill); }
  uint8_t* data() { return b.data(); }
  uint32_t u32(unsigned off) const {
    uint32_t v;
    std::memcpy(&v, &b[off], 4);
    return v;
  }
  void put32(unsigned off, uint32_t v) { std::memcpy(&b[off], &v, 4); }
  void put64(unsigned off, uint64_t v) { std::memcpy(&b[off], &v, 8); }
};

GpuAccess load_of(uint32_t sectors) {
  GpuAccess a;
  a.kind = AccessKind::Load;
  a.sector_mask = sectors;
  return a;
}

// Stores `n` bytes of `v` at `off` of `line`.
L2Outcome store_bytes(L2Core& l2, Addr line, unsigned off, unsigned n, uint8_t v) {
  GpuAccess a;
  a.kind = AccessKind::Store;
  Line d, be;
  for (unsigned i = off; i < off + n; ++i)
    d.b[i] = v, be.b[i] = 1;
  a.sector_mask = 1u << (off / 32);
  return l2.access(a, line, d.data(), be.data(), 0);
}

GpuAccess rmw(AtomicOp op, DataType t, std::initializer_list<std::pair<uint16_t, uint64_t>> lanes,
              uint64_t compare = 0) {
  GpuAccess a;
  a.kind = AccessKind::Atomic;
  a.op = op;
  a.type = t;
  for (auto [off, operand] : lanes) {
    a.lanes.push_back(LaneOp{off, uint8_t(a.lanes.size()), operand, compare, 0});
  }
  return a;
}

// Brings `line` fully valid with contents `mem`.
void fill_line(L2Core& l2, Addr line, Line& mem) {
  CHECK_FALSE(l2.fill(line, 0xf, mem.data()).has_value());
}

} // namespace

TEST_CASE("l2 core: load miss by sector, fill, replay hit", "[l2]") {
  StatGroup root;
  StatGroup g(root, "l2");
  L2Core l2(small_spec(), g);
  Line out(0xcc), dram;
  for (unsigned i = 0; i < 128; ++i)
    dram.b[i] = uint8_t(i);

  auto a = load_of(0b0110);
  auto r = l2.access(a, 0x1000, out.data(), nullptr, 0);
  CHECK_FALSE(r.hit);
  CHECK(r.fetch_sectors == 0b0110);
  l2.fill(0x1000, 0b0110, dram.data());
  r = l2.access(a, 0x1000, out.data(), nullptr, 5, /*replay=*/true);
  CHECK(r.hit);
  CHECK(out.b[31] == 0xcc); // sector 0 not requested: untouched
  CHECK(out.b[32] == 32);
  CHECK(out.b[95] == 95);
  CHECK(out.b[96] == 0xcc);

  // Same line, a sector never fetched: miss for that sector only.
  auto b = load_of(0b1100);
  r = l2.access(b, 0x1000, out.data(), nullptr, 6);
  CHECK(r.fetch_sectors == 0b1000);
  r = l2.access(a, 0x1000, out.data(), nullptr, 7);
  CHECK(r.hit);

  CHECK(counter(g, "loads") == 3);
  CHECK(counter(g, "load_misses") == 2);
  CHECK(counter(g, "load_hits") == 1);
  CHECK(counter(g, "fills") == 1);
  CHECK(formula(g, "load_hit_rate") == Approx(1.0 / 3));
}

TEST_CASE("l2 core: lazy store, then a read of the partial sector fetches without clobbering",
          "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  auto r = store_bytes(l2, 0x2000, 36, 4, 0x77);
  CHECK(r.hit);
  CHECK(r.fetch_sectors == 0);
  CHECK(counter(g, "fills") == 0); // write-allocate without fetch

  Line out, dram(0xee);
  auto a = load_of(0b0010);
  r = l2.access(a, 0x2000, out.data(), nullptr, 0);
  CHECK_FALSE(r.hit);
  CHECK(r.fetch_sectors == 0b0010);
  l2.fill(0x2000, 0b0010, dram.data()); // DRAM still has the old bytes
  r = l2.access(a, 0x2000, out.data(), nullptr, 0, true);
  REQUIRE(r.hit);
  CHECK(out.b[35] == 0xee);
  CHECK(out.b[36] == 0x77);
  CHECK(out.b[39] == 0x77);
  CHECK(out.b[40] == 0xee);
  CHECK(formula(g, "hit_rate") == Approx(0.0)); // store to an absent line, a load miss
}

TEST_CASE("l2 core: dirty victim is written back with its dirty bytes only", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  store_bytes(l2, 0x000, 8, 2, 0x42); // set 0, dirty bytes 8..9
  Line dram(0x11);
  CHECK_FALSE(l2.fill(0x200, 0xf, dram.data()).has_value()); // set 0, second way
  auto wb = l2.fill(0x400, 0xf, dram.data());                // evicts LRU = 0x000
  REQUIRE(wb.has_value());
  CHECK(wb->line == 0x000);
  CHECK(wb->dirty.count() == 2);
  CHECK(wb->dirty.all(8, 2));
  CHECK(wb->data[8] == 0x42);
  CHECK(wb->data[9] == 0x42);
  // Clean victim (0x200): evicted without a writeback.
  auto wb2 = store_bytes(l2, 0x600, 0, 1, 1).writeback;
  CHECK_FALSE(wb2.has_value());
  CHECK(counter(g, "evictions") == 2);
  CHECK(counter(g, "writebacks") == 1);
  CHECK(counter(g, "store_hits") == 0);
}

TEST_CASE("l2 core: atomic results for several ops and types", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  Line mem;
  mem.put32(0, 10);
  mem.put32(4, std::bit_cast<uint32_t>(1.5f));
  mem.put32(8, uint32_t(-5));
  mem.put64(16, 0x100000000ull);
  mem.put32(32, 7);
  mem.put32(36, 7);
  fill_line(l2, 0x3000, mem);

  auto add = rmw(AtomicOp::Add, DataType::U32, {{0, 5}});
  CHECK(l2.access(add, 0x3000, nullptr, nullptr, 0).hit);
  CHECK(add.lanes[0].result == 10);

  auto fadd = rmw(AtomicOp::Add, DataType::F32, {{4, std::bit_cast<uint32_t>(2.25f)}});
  l2.access(fadd, 0x3000, nullptr, nullptr, 10);
  CHECK(fadd.lanes[0].result == std::bit_cast<uint32_t>(1.5f));

  auto smin = rmw(AtomicOp::Min, DataType::S32, {{8, 3}});
  l2.access(smin, 0x3000, nullptr, nullptr, 20);
  CHECK(smin.lanes[0].result == uint32_t(-5));

  auto add64 = rmw(AtomicOp::Add, DataType::U64, {{16, 0xffffffffull}});
  l2.access(add64, 0x3000, nullptr, nullptr, 30);
  CHECK(add64.lanes[0].result == 0x100000000ull);

  // CAS: lane 0 matches (7 -> 9), lane 1's word also holds 7 but compare is
  // per request, so give it a separate request that does not match.
  auto cas = rmw(AtomicOp::Cas, DataType::U32, {{32, 9}}, 7);
  l2.access(cas, 0x3000, nullptr, nullptr, 40);
  CHECK(cas.lanes[0].result == 7);
  auto cas_fail = rmw(AtomicOp::Cas, DataType::U32, {{36, 9}}, 8);
  l2.access(cas_fail, 0x3000, nullptr, nullptr, 50);
  CHECK(cas_fail.lanes[0].result == 7);

  Line out;
  auto a = load_of(0b0011);
  REQUIRE(l2.access(a, 0x3000, out.data(), nullptr, 60).hit);
  CHECK(out.u32(0) == 15);
  CHECK(std::bit_cast<float>(out.u32(4)) == 3.75f);
  CHECK(out.u32(8) == uint32_t(-5));
  CHECK(out.u32(16) == 0xffffffffu);
  CHECK(out.u32(20) == 1);
  CHECK(out.u32(32) == 9);
  CHECK(out.u32(36) == 7);

  // Atomics leave their words dirty for the writeback.
  auto wbs = l2.flush_all();
  REQUIRE(wbs.size() == 1);
  CHECK(wbs[0].dirty.all(0, 12));
  CHECK_FALSE(wbs[0].dirty.any(12, 4));
  CHECK(wbs[0].dirty.all(16, 8));
  CHECK(wbs[0].dirty.all(32, 8));
  CHECK(wbs[0].dirty.count() == 28);
  CHECK(counter(g, "atomics") == 6);
  CHECK(counter(g, "atomic_lane_ops") == 6);
}

TEST_CASE("l2 core: atomic needs only its words valid, else fetches their sectors", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  auto a = rmw(AtomicOp::Add, DataType::U32, {{0, 1}, {100, 1}});
  auto r = l2.access(a, 0x4000, nullptr, nullptr, 0);
  CHECK_FALSE(r.hit);
  CHECK(r.fetch_sectors == 0b1001);

  store_bytes(l2, 0x5000, 0, 4, 0); // word 0 valid (sector 0 is not)
  auto b = rmw(AtomicOp::Add, DataType::U32, {{0, 3}});
  CHECK(l2.access(b, 0x5000, nullptr, nullptr, 0).hit);
  auto c = rmw(AtomicOp::Add, DataType::U32, {{0, 3}, {4, 1}});
  r = l2.access(c, 0x5000, nullptr, nullptr, 0);
  CHECK_FALSE(r.hit);
  CHECK(r.fetch_sectors == 0b0001);
  Line dram(0);
  dram.put32(0, 1000); // stale DRAM value of word 0 must not win
  dram.put32(4, 20);
  l2.fill(0x5000, 0b0001, dram.data());
  r = l2.access(c, 0x5000, nullptr, nullptr, 0, true);
  REQUIRE(r.hit);
  CHECK(c.lanes[0].result == 3);
  CHECK(c.lanes[1].result == 20);
  CHECK(counter(g, "atomics") == 3);
  CHECK(counter(g, "atomic_misses") == 2);
  CHECK(counter(g, "atomic_hits") == 1);
}

TEST_CASE("l2 core: same-word lane ops serialize inside one request", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  Line mem;
  fill_line(l2, 0, mem);
  auto a = rmw(AtomicOp::Add, DataType::U32, {{0, 1}, {0, 1}, {0, 1}, {0, 1}});
  auto r = l2.access(a, 0, nullptr, nullptr, 100);
  REQUIRE(r.hit);
  for (unsigned i = 0; i < 4; ++i)
    CHECK(a.lanes[i].result == i); // lane order
  CHECK(r.extra_cycles == 16);     // starts 100, 104, 108, 112; each takes 4
  CHECK(counter(g, "same_word_serializations") == 3);
  CHECK(counter(g, "same_word_wait_cycles") == 3 + 3 + 3);
  CHECK(counter(g, "atomic_wait_cycles") == 0 + 4 + 8 + 12);

  // Distinct words: only the unit's throughput (1 op/cycle) spaces them.
  auto b = rmw(AtomicOp::Add, DataType::U32, {{4, 1}, {8, 1}, {12, 1}, {16, 1}});
  r = l2.access(b, 0, nullptr, nullptr, 200);
  CHECK(r.extra_cycles == 3 + 4);
  CHECK(counter(g, "same_word_serializations") == 3);
}

TEST_CASE("l2 core: atomic unit throughput", "[l2]") {
  Line mem;
  auto b = rmw(AtomicOp::Add, DataType::U32, {{0, 1}, {4, 1}, {8, 1}, {12, 1}, {16, 1}});
  {
    StatGroup g;
    L2Core l2(small_spec(4), g); // 4 ops per cycle: 5 ops take 2 issue cycles
    fill_line(l2, 0, mem);
    CHECK(l2.access(b, 0, nullptr, nullptr, 0).extra_cycles == 1 + 4);
  }
  StatGroup g;
  L2Core l2(small_spec(1), g);
  fill_line(l2, 0, mem);
  CHECK(l2.access(b, 0, nullptr, nullptr, 0).extra_cycles == 4 + 4);
  // A later request queues behind the unit's backlog (free again at cycle 5).
  auto c = rmw(AtomicOp::Add, DataType::U32, {{64, 1}});
  CHECK(l2.access(c, 0, nullptr, nullptr, 2).extra_cycles == (5 - 2) + 4);
  CHECK(counter(g, "same_word_serializations") == 0);
}

TEST_CASE("l2 core: same-word ops serialize across requests", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  Line mem;
  fill_line(l2, 0, mem);
  auto x = rmw(AtomicOp::Add, DataType::U32, {{0, 1}});
  CHECK(l2.access(x, 0, nullptr, nullptr, 100).extra_cycles == 4); // done at 104
  auto y = rmw(AtomicOp::Add, DataType::U32, {{0, 1}});
  CHECK(l2.access(y, 0, nullptr, nullptr, 101).extra_cycles == 7); // starts at 104
  CHECK(y.lanes[0].result == 1);
  CHECK(counter(g, "same_word_serializations") == 1);
  auto other = rmw(AtomicOp::Add, DataType::U32, {{4, 1}});
  CHECK(l2.access(other, 0, nullptr, nullptr, 110).extra_cycles == 4);
  auto late = rmw(AtomicOp::Add, DataType::U32, {{0, 1}});
  CHECK(l2.access(late, 0, nullptr, nullptr, 200).extra_cycles == 4); // 108 is long past
  CHECK(counter(g, "same_word_serializations") == 1);

  // An 8-byte op and a 4-byte op on its upper half touch the same bytes.
  auto wide = rmw(AtomicOp::Add, DataType::U64, {{8, 1}});
  l2.access(wide, 0, nullptr, nullptr, 300);
  auto half = rmw(AtomicOp::Add, DataType::U32, {{12, 1}});
  CHECK(l2.access(half, 0, nullptr, nullptr, 301).extra_cycles == 7);
  CHECK(counter(g, "same_word_serializations") == 2);
}

TEST_CASE("l2 core: the per-word ready table stays bounded", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(4), g);
  Line mem;
  for (Addr line = 0; line < 8 * 128; line += 128)
    fill_line(l2, line, mem);
  for (unsigned i = 0; i < 20000; ++i) {
    auto a = rmw(AtomicOp::Add, DataType::U32, {{uint16_t((i % 32) * 4), 1}});
    l2.access(a, (i / 32 % 8) * 128, nullptr, nullptr, i * 2);
  }
  CHECK(l2.word_ready().capacity() <= 256);
  CHECK(l2.word_ready().size() <= 128);
}

TEST_CASE("l2 core: debug overlay and debug write", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  store_bytes(l2, 0x000, 126, 2, 0xbb); // end of line 0
  Line dram(0x01);
  l2.fill(0x080, 0b0001, dram.data()); // start of line 0x80 (clean)
  l2.debug_write(0x080, std::array<uint8_t, 1>{0x02}.data(), 1);

  std::array<uint8_t, 8> buf;
  buf.fill(0xaa); // what DRAM holds
  l2.debug_overlay(124, buf.data(), buf.size());
  CHECK(buf == std::array<uint8_t, 8>{0xaa, 0xaa, 0xbb, 0xbb, 0x02, 0x01, 0x01, 0x01});

  // A host write over cached bytes updates them; it validates nothing new.
  const std::array<uint8_t, 4> w{9, 9, 9, 9};
  l2.debug_write(124, w.data(), w.size());
  buf.fill(0xaa);
  l2.debug_overlay(124, buf.data(), buf.size());
  CHECK(buf == std::array<uint8_t, 8>{0xaa, 0xaa, 9, 9, 0x02, 0x01, 0x01, 0x01});
  Line out;
  auto a = load_of(0b1000);
  CHECK(l2.access(a, 0, out.data(), nullptr, 0).fetch_sectors == 0b1000);
}

TEST_CASE("l2 core: flush_all writes back dirty bytes and leaves lines clean and valid", "[l2]") {
  StatGroup g;
  L2Core l2(small_spec(), g);
  store_bytes(l2, 0x000, 0, 32, 0x33);
  store_bytes(l2, 0x080, 40, 1, 0x44);
  auto wbs = l2.flush_all();
  REQUIRE(wbs.size() == 2);
  CHECK(wbs[0].line == 0x000);
  CHECK(wbs[0].dirty.count() == 32);
  CHECK(wbs[0].data[31] == 0x33);
  CHECK(wbs[1].line == 0x080);
  CHECK(wbs[1].dirty.count() == 1);
  CHECK(wbs[1].data[40] == 0x44);
  CHECK(l2.flush_all().empty());
  Line out;
  auto a = load_of(0b0001);
  CHECK(l2.access(a, 0x000, out.data(), nullptr, 0).hit);
  CHECK(out.b[0] == 0x33);
  // A clean line is evicted without a writeback.
  Line dram;
  l2.fill(0x200, 0xf, dram.data());
  CHECK_FALSE(l2.fill(0x400, 0xf, dram.data()).has_value());
  CHECK(counter(g, "writebacks") == 2);
}

TEST_CASE("l2 core: rejects bad requests and underived specs", "[l2]") {
  StatGroup g;
  CHECK_THROWS_AS(L2Core(defaults<L2Spec>(), g), ConfigError);
  L2Core l2(small_spec(), g);
  auto bad = rmw(AtomicOp::Add, DataType::U64, {{4, 1}});
  CHECK_THROWS_AS(l2.access(bad, 0, nullptr, nullptr, 0), std::invalid_argument);
  auto out_of_line = rmw(AtomicOp::Add, DataType::U32, {{128, 1}});
  CHECK_THROWS_AS(l2.access(out_of_line, 0, nullptr, nullptr, 0), std::invalid_argument);
  auto a = load_of(1);
  CHECK_THROWS_AS(l2.access(a, 0x10, nullptr, nullptr, 0), std::invalid_argument);

  // Without byte enables a store writes the whole sectors of its mask.
  GpuAccess st;
  st.kind = AccessKind::Store;
  Line d(0x66);
  CHECK_THROWS_AS(l2.access(st, 0, d.data(), nullptr, 0), std::invalid_argument);
  st.sector_mask = 0b0010;
  CHECK(l2.access(st, 0, d.data(), nullptr, 0).hit);
  const CacheLine* l = l2.array().find(0);
  REQUIRE(l);
  CHECK(l->valid_bytes.count() == 32);
  CHECK(l->dirty_bytes.all(32, 32));
}
