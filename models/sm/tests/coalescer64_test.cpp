// Coalescing of 64-wide wavefronts into 64 B lines (the apu64 platform,
// issue 15 item 3): lane masks use all 64 bits, and the line/sector split
// follows the coalescer's line size, not Volta's 128 B.
#include "models/sm/coalescer.hpp"
#include "models/sm/tests/coalescer_test_util.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

WarpInstr wave(WarpInstr::Kind k, const Lanes<Addr>& addr, Mask m = Mask::all(64)) {
  return instr(k, addr, 4, m);
}

} // namespace

TEST_CASE("coalescer 64: 64 lanes x 4 B contiguous is four 64 B lines", "[coalescer][wave64]") {
  Coalescer c(64, 64);
  auto r = run(c, wave(WarpInstr::Kind::Load, linear(0x1000, 4)));
  REQUIRE(r.size() == 4);
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(r[i].line == 0x1000 + 64 * i);
    CHECK(r[i].access.sector_mask == 0x1); // one whole-line sector
    CHECK(r[i].lane_mask == uint64_t{0xffff} << (16 * i));
  }
  CHECK(c.sectors() == 4);
}

TEST_CASE("coalescer 64: sectors of 32 B inside a 64 B line", "[coalescer][wave64]") {
  Coalescer c(64, 32);
  // Lanes 40..47 read bytes 32..63 of the third line (0x2080): sector 1 only.
  auto r = run(c, wave(WarpInstr::Kind::Load, linear(0x2000, 4), Mask(uint64_t{0xff} << 40)));
  REQUIRE(r.size() == 1);
  CHECK(r[0].line == 0x2080);
  CHECK(r[0].access.sector_mask == 0x2);
  CHECK(r[0].lane_mask == uint64_t{0xff} << 40);
}

TEST_CASE("coalescer 64: the upper lanes of a load scatter back", "[coalescer][wave64]") {
  Coalescer c(64, 64);
  // Every lane reads word 63 - l of one 256 B block: four lines, lanes reversed.
  const Lanes<Addr> a = Lanes<Addr>::generate([](unsigned l) { return 0x8000 + 4 * (63 - l); });
  const WarpInstr in = wave(WarpInstr::Kind::Load, a);
  auto r = run(c, in);
  REQUIRE(r.size() == 4);
  CHECK(r[0].line == 0x80c0); // lane 0's line comes first
  CHECK(r[0].lane_mask == 0xffffu);
  CHECK(r[3].line == 0x8000);
  CHECK(r[3].lane_mask == uint64_t{0xffff} << 48);
  Lanes<uint64_t> res;
  for (const LineRequest& q : r) {
    std::array<uint8_t, 64> line{};
    for (unsigned w = 0; w < 16; ++w)
      line[4 * w] = uint8_t((q.line - 0x8000) / 4 + w); // word index in the block
    c.scatter_load(in, q, line.data(), res);
  }
  for (unsigned l = 0; l < 64; ++l)
    CHECK(res[l] == 63 - l);
}

TEST_CASE("coalescer 64: stores keep the highest lane's bytes", "[coalescer][wave64]") {
  Coalescer c(64, 64);
  WarpInstr in = wave(WarpInstr::Kind::Store, Lanes<Addr>(0x3010));
  in.operand = Lanes<uint64_t>::generate([](unsigned l) { return 100 + l; });
  auto r = run(c, in);
  REQUIRE(r.size() == 1);
  CHECK(r[0].lane_mask == ~uint64_t{0});
  CHECK(r[0].data[0x10] == 163); // lane 63 wins
  CHECK(r[0].byte_enable[0x10] == 0xff);
  CHECK(r[0].byte_enable[0x14] == 0);
}

TEST_CASE("coalescer 64: same-word atomics split by rank over 64 lanes", "[coalescer][wave64]") {
  Coalescer c(64, 64);
  // Lanes alternate between two words of one line; lane 63 alone on a second line.
  Lanes<Addr> a = Lanes<Addr>::generate([](unsigned l) { return 0x4000 + 4 * (l % 2); });
  a[63] = 0x4040;
  WarpInstr in = wave(WarpInstr::Kind::Atomic, a);
  in.operand = Lanes<uint64_t>(1);
  auto r = run(c, in);
  // Word 0 has 32 lanes (0, 2, ..., 62), word 1 has 31: 32 requests for the
  // first line, one for the second.
  REQUIRE(r.size() == 33);
  CHECK(r[0].line == 0x4000);
  CHECK(r[0].lane_mask == 0b11u);              // rank 0: lanes 0 and 1
  CHECK(r[31].lane_mask == uint64_t{1} << 62); // rank 31: word 0 only
  CHECK(r[31].access.lanes.size() == 1);
  CHECK(r[31].access.lanes[0].lane == 62);
  CHECK(r[32].line == 0x4040);
  CHECK(r[32].lane_mask == uint64_t{1} << 63);
  CHECK(r[32].access.lanes[0].lane == 63);
  // Old values scatter to lanes above 31 too.
  GpuAccess done = r[32].access;
  done.lanes[0].result = 7;
  Lanes<uint64_t> res;
  Coalescer::scatter_atomic(done, res);
  CHECK(res[63] == 7);
}
