// Coalescing of global loads, stores and atomics into per-line requests.
#include "models/sm/coalescer.hpp"
#include "models/sm/tests/coalescer_test_util.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

using namespace tlmgpu;
using namespace tlmgpu::test;

TEST_CASE("coalescer: 32 lanes x 4 B contiguous is one line, four sectors", "[coalescer]") {
  Coalescer c;
  auto r = run(c, instr(WarpInstr::Kind::Load, linear(0x1000, 4)));
  REQUIRE(r.size() == 1);
  CHECK(r[0].line == 0x1000);
  CHECK(r[0].access.sector_mask == 0xf);
  CHECK(r[0].lane_mask == 0xffffffffu);
  CHECK(r[0].access.kind == AccessKind::Load);
  CHECK(c.requests() == 1);
  CHECK(c.sectors() == 4);
  CHECK(c.instructions() == 1);
}

TEST_CASE("coalescer: partial masks touch only their sectors", "[coalescer]") {
  Coalescer c;
  // Lanes 8..15 read bytes 32..63 of the line: sector 1 only.
  auto r = run(c, instr(WarpInstr::Kind::Load, linear(0x2000, 4), 4, Mask(0xff00)));
  REQUIRE(r.size() == 1);
  CHECK(r[0].access.sector_mask == 0x2);
  CHECK(r[0].lane_mask == 0xff00u);
  // Misaligned base: 32 x 4 B from 0x2040 spans two lines, sectors 2-3 and 0-1.
  r = run(c, instr(WarpInstr::Kind::Load, linear(0x2040, 4)));
  REQUIRE(r.size() == 2);
  CHECK(r[0].line == 0x2000);
  CHECK(r[0].access.sector_mask == 0xc);
  CHECK(r[0].lane_mask == 0x0000ffffu);
  CHECK(r[1].line == 0x2080);
  CHECK(r[1].access.sector_mask == 0x3);
  // An empty mask issues nothing.
  CHECK(run(c, instr(WarpInstr::Kind::Load, linear(0, 4), 4, Mask())).empty());
}

TEST_CASE("coalescer: a 128 B stride gives one request per lane", "[coalescer]") {
  Coalescer c;
  auto r = run(c, instr(WarpInstr::Kind::Load, linear(0x10000, 128)));
  REQUIRE(r.size() == 32);
  for (unsigned l = 0; l < 32; ++l) {
    CHECK(r[l].line == 0x10000 + 128 * l);
    CHECK(r[l].access.sector_mask == 0x1);
    CHECK(r[l].lane_mask == (1u << l));
  }
  CHECK(c.sectors() == 32);
}

TEST_CASE("coalescer: scattered lanes group by line in first-lane order", "[coalescer]") {
  Coalescer c;
  Lanes<Addr> a(0x5000); // inactive lanes never matter
  a[0] = 0x9004;         // line 0x9000 sector 0
  a[1] = 0x3078;         // line 0x3000 sector 3
  a[2] = 0x9064;         // line 0x9000 sector 3
  a[3] = 0x3000;         // line 0x3000 sector 0
  a[4] = 0x9008;         // line 0x9000 sector 0
  auto r = run(c, instr(WarpInstr::Kind::Load, a, 4, Mask(0x1f)));
  REQUIRE(r.size() == 2);
  CHECK(r[0].line == 0x9000);
  CHECK(r[0].lane_mask == 0b10101u);
  CHECK(r[0].access.sector_mask == 0x9);
  CHECK(r[1].line == 0x3000);
  CHECK(r[1].lane_mask == 0b01010u);
  CHECK(r[1].access.sector_mask == 0x9);
}

TEST_CASE("coalescer: same-address loads share one request", "[coalescer]") {
  Coalescer c;
  auto r = run(c, instr(WarpInstr::Kind::Load, Lanes<Addr>(0x4010)));
  REQUIRE(r.size() == 1);
  CHECK(r[0].access.sector_mask == 0x1);
  CHECK(r[0].lane_mask == 0xffffffffu);
  // Scatter back: every lane reads the same word of the returned line.
  std::array<uint8_t, 128> line{};
  line[0x10] = 0x78, line[0x11] = 0x56, line[0x12] = 0x34, line[0x13] = 0x12;
  WarpInstr in = instr(WarpInstr::Kind::Load, Lanes<Addr>(0x4010));
  Lanes<uint64_t> res;
  c.scatter_load(in, r[0], line.data(), res);
  CHECK(res.equals(Lanes<uint64_t>(0x12345678), Mask::all(32)));
}

TEST_CASE("coalescer: sub-word loads scatter zero-extended bytes", "[coalescer]") {
  Coalescer c;
  WarpInstr in = instr(WarpInstr::Kind::Load, linear(0x100, 1), 1);
  auto r = run(c, in);
  REQUIRE(r.size() == 1);
  CHECK(r[0].access.sector_mask == 0x1);
  std::array<uint8_t, 128> line{};
  for (unsigned i = 0; i < 128; ++i)
    line[i] = uint8_t(0xf0 + i);
  Lanes<uint64_t> res;
  c.scatter_load(in, r[0], line.data(), res);
  CHECK(res[0] == 0xf0);
  CHECK(res[15] == 0xff);
  CHECK(res[16] == 0x00); // 0xf0 + 16 wraps to 0x00 as a byte
}

TEST_CASE("coalescer: stores carry data and byte enables; the highest lane wins", "[coalescer]") {
  Coalescer c;
  Lanes<Addr> a = linear(0x800, 8); // lanes 0..15: 8-byte stride, two sectors... of 0x800
  a[20] = 0x808;                    // lane 20 writes the same bytes as lane 1
  WarpInstr in = instr(WarpInstr::Kind::Store, a, 4, Mask(0x0010ffff));
  in.operand = Lanes<uint64_t>::generate([](unsigned l) { return 0xa0a0a000u + l; });
  auto r = run(c, in);
  REQUIRE(r.size() == 1);
  CHECK(r[0].access.kind == AccessKind::Store);
  CHECK(r[0].access.sector_mask == 0xf); // 16 lanes x 8 B = bytes 0..127
  for (unsigned l = 0; l < 16; ++l) {
    const unsigned off = 8 * l;
    const uint32_t v = 0xa0a0a000u + (l == 1 ? 20 : l);
    for (unsigned b = 0; b < 4; ++b) {
      CHECK(r[0].byte_enable[off + b] == 0xff);
      CHECK(r[0].data[off + b] == uint8_t(v >> (8 * b)));
      CHECK(r[0].byte_enable[off + 4 + b] == 0x00); // the gap between lanes stays untouched
    }
  }
  // 2-byte store: only two bytes enabled.
  WarpInstr h = instr(WarpInstr::Kind::Store, Lanes<Addr>(0x906), 2, Mask::lane(3));
  h.operand[3] = 0xbeef;
  r = run(c, h);
  REQUIRE(r.size() == 1);
  CHECK(r[0].byte_enable[5] == 0);
  CHECK(r[0].byte_enable[6] == 0xff);
  CHECK(r[0].byte_enable[7] == 0xff);
  CHECK(r[0].byte_enable[8] == 0);
  CHECK(r[0].data[6] == 0xef);
  CHECK(r[0].data[7] == 0xbe);
}

TEST_CASE("coalescer: atomics on one word serialize one lane per request", "[coalescer]") {
  Coalescer c;
  WarpInstr in = instr(WarpInstr::Kind::Atomic, Lanes<Addr>(0x7004));
  in.op = AtomicOp::Add;
  in.order = MemOrder::Commutative;
  in.operand = Lanes<uint64_t>::generate([](unsigned l) { return l + 1; });
  auto r = run(c, in);
  REQUIRE(r.size() == 32);
  for (unsigned k = 0; k < 32; ++k) {
    CHECK(r[k].line == 0x7000);
    CHECK(r[k].access.kind == AccessKind::Atomic);
    CHECK(r[k].access.order == MemOrder::Commutative);
    REQUIRE(r[k].access.lanes.size() == 1);
    CHECK(r[k].access.lanes[0].lane == k); // lane order = application order
    CHECK(r[k].access.lanes[0].offset == 4);
    CHECK(r[k].access.lanes[0].operand == k + 1);
    CHECK(r[k].access.sector_mask == 0x1);
  }
}

TEST_CASE("coalescer: 4 words x 8 lanes make 8 requests of 4 lanes", "[coalescer]") {
  Coalescer c;
  // Lane l hits word l % 4 of one line: the histogram's hot-bin pattern.
  WarpInstr in = instr(WarpInstr::Kind::Red,
                       Lanes<Addr>::generate([](unsigned l) { return 0xa000 + 32 * (l % 4); }));
  in.op = AtomicOp::Add;
  auto r = run(c, in);
  REQUIRE(r.size() == 8);
  for (unsigned k = 0; k < 8; ++k) {
    CHECK(r[k].access.kind == AccessKind::Red);
    REQUIRE(r[k].access.lanes.size() == 4);
    CHECK(r[k].access.sector_mask == 0xf);
    for (unsigned j = 0; j < 4; ++j) {
      CHECK(r[k].access.lanes[j].lane == 4 * k + j);
      CHECK(r[k].access.lanes[j].offset == 32 * j);
    }
  }
  CHECK(c.requests() == 8);
  CHECK(c.sectors() == 32);
}

TEST_CASE("coalescer: atomics over two lines, CAS operands, scatter of old values", "[coalescer]") {
  Coalescer c;
  Lanes<Addr> a(0);
  a[0] = 0x1000, a[1] = 0x2000, a[2] = 0x1000, a[3] = 0x1008;
  WarpInstr in = instr(WarpInstr::Kind::Atomic, a, 8, Mask(0xf));
  in.op = AtomicOp::Cas;
  in.operand = Lanes<uint64_t>::generate([](unsigned l) { return 100 + l; });
  in.compare = Lanes<uint64_t>::generate([](unsigned l) { return 200 + l; });
  auto r = run(c, in);
  // line 0x1000: word 0 has lanes 0 and 2 -> 2 requests; line 0x2000: 1 request.
  REQUIRE(r.size() == 3);
  CHECK(r[0].line == 0x1000);
  CHECK(r[0].lane_mask == 0b1001u);
  CHECK(r[1].line == 0x1000);
  CHECK(r[1].lane_mask == 0b0100u);
  CHECK(r[2].line == 0x2000);
  CHECK(r[0].access.lanes[1].operand == 103);
  CHECK(r[0].access.lanes[1].compare == 203);
  CHECK(r[0].access.lanes[1].offset == 8);
  Lanes<uint64_t> res;
  for (const LineRequest& q : r) {
    GpuAccess done = q.access;
    for (unsigned k = 0; k < done.lanes.size(); ++k)
      done.lanes[k].result = 7000 + done.lanes[k].lane;
    Coalescer::scatter_atomic(done, res);
  }
  CHECK(res.equals(Lanes<uint64_t>::generate([](unsigned l) { return 7000 + l; }), Mask(0xf)));
}

TEST_CASE("coalescer: misaligned and line-crossing accesses are errors", "[coalescer]") {
  Coalescer c;
  Lanes<Addr> a = linear(0x1000, 4);
  a[5] = 0x107e; // 4-byte access two bytes before the line end
  WarpInstr in = instr(WarpInstr::Kind::Load, a);
  CHECK_THROWS_WITH(c.coalesce(in), Catch::Contains("lane 5") && Catch::Contains("0x107e") &&
                                        Catch::Contains("not aligned"));
  in.mask.reset(5); // the bad lane inactive: fine
  CHECK(c.coalesce(in).size() == 1);
  WarpInstr at = instr(WarpInstr::Kind::Atomic, Lanes<Addr>(0x2004), 8, Mask::lane(9));
  CHECK_THROWS_WITH(c.coalesce(at), Catch::Contains("lane 9"));
  // A line smaller than the access: aligned but crossing.
  Coalescer tiny(4, 4);
  CHECK_THROWS_WITH(tiny.coalesce(instr(WarpInstr::Kind::Load, Lanes<Addr>(0x10), 8, Mask(1))),
                    Catch::Contains("crosses a 4-byte line"));
  WarpInstr compute;
  compute.kind = WarpInstr::Kind::Compute;
  CHECK_THROWS_AS(c.coalesce(compute), std::invalid_argument);
  CHECK_THROWS_AS(Coalescer(96, 32), std::invalid_argument);
  CHECK_THROWS_AS(Coalescer(512, 32), std::invalid_argument);
}

TEST_CASE("coalescer: other line and sector sizes", "[coalescer]") {
  Coalescer c(64, 16);
  auto r = run(c, instr(WarpInstr::Kind::Load, linear(0x0, 4)));
  REQUIRE(r.size() == 2);
  CHECK(r[0].access.sector_mask == 0xf);
  CHECK(r[1].line == 64);
  CHECK(c.line_of(0x7f) == 0x40);
}
