// L1 core, hLRC owned lines (l1_core_hlrc.cpp): install, local atomics,
// loads/stores on an owned line, capacity eviction (a release), recall and
// kernel-end give-up, and the guards that keep an owned line from being lost.
// 2 sets x 2 ways x 128 B lines: 0x000, 0x100 and 0x200 share set 0.
#include "models/l1/l1_core.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace tlmgpu;

namespace {

L1Spec hlrc_spec(const std::string& policy = "write_through") {
  auto s = defaults<L1Spec>();
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.ways = 2;
  s.sets = 2;
  s.bytes = s.sets * s.ways * s.line_bytes;
  s.sectors_per_line = 4;
  s.write_policy = policy;
  s.atomic_mode = "hlrc";
  return s;
}

uint64_t counter(const StatGroup& g, const char* name) {
  auto* c = dynamic_cast<const Counter*>(g.find(name));
  REQUIRE(c);
  return c->value();
}

std::array<uint8_t, 128> line_of(uint8_t base) {
  std::array<uint8_t, 128> d{};
  for (unsigned i = 0; i < 128; ++i)
    d[i] = uint8_t(base + i);
  return d;
}

uint32_t word(const uint8_t* p, unsigned off) {
  uint32_t v;
  std::memcpy(&v, p + off, 4);
  return v;
}

GpuAccess add_u32(unsigned off, uint32_t v) {
  GpuAccess a;
  a.kind = AccessKind::Atomic;
  a.op = AtomicOp::Add;
  a.type = DataType::U32;
  a.lanes.resize(1);
  a.lanes[0].offset = uint16_t(off);
  a.lanes[0].operand = v;
  a.sector_mask = 1u << (off / 32);
  return a;
}

} // namespace

TEST_CASE("l1 hlrc: a granted line is owned, fully valid, and serves atomics locally",
          "[l1][hlrc]") {
  StatGroup g;
  L1Core l1(hlrc_spec(), g);
  auto d = line_of(0);
  CHECK_FALSE(l1.owned(0x1000));
  GpuAccess a = add_u32(8, 5);
  CHECK_FALSE(l1.local_atomic(a, 0x1000)); // not owned: nothing done
  CHECK(counter(g, "hlrc_local_atomics") == 0);

  CHECK_FALSE(l1.install_owned(0x1000, d.data()));
  CHECK(l1.owned(0x1000));
  CHECK(counter(g, "hlrc_owned_installs") == 1);

  // Two lanes on the same word: applied in lane order, exact old values.
  a.lanes.resize(2);
  a.lanes[1] = a.lanes[0];
  a.lanes[1].operand = 7;
  REQUIRE(l1.local_atomic(a, 0x1000));
  CHECK(a.lanes[0].result == word(d.data(), 8));
  CHECK(a.lanes[1].result == word(d.data(), 8) + 5);
  CHECK(counter(g, "hlrc_local_atomics") == 1);

  // Every sector is valid: any load hits and sees the atomic's result.
  std::array<uint8_t, 128> out{};
  CHECK(l1.load(0x1000, 0xf, out.data()).kind == L1Outcome::Kind::Hit);
  CHECK(word(out.data(), 8) == word(d.data(), 8) + 12);
  CHECK(word(out.data(), 100) == word(d.data(), 100));

  // The recall hands back every byte with the atomic's word dirty.
  auto wb = l1.give_up(0x1000);
  REQUIRE(wb);
  CHECK(wb->owned);
  CHECK(wb->line == 0x1000);
  CHECK(wb->dirty.count() == 4);
  CHECK(wb->dirty.all(8, 4));
  CHECK(word(wb->data.data(), 8) == word(d.data(), 8) + 12);
  CHECK_FALSE(l1.owned(0x1000));
  CHECK(l1.load(0x1000, 1, out.data()).kind == L1Outcome::Kind::Miss); // dropped
  CHECK_FALSE(l1.give_up(0x1000));                                     // nothing left to give
}

TEST_CASE("l1 hlrc: a store to an owned line is kept there (write-through L1)", "[l1][hlrc]") {
  StatGroup g;
  L1Core l1(hlrc_spec("write_through"), g);
  auto d = line_of(0x40);
  l1.install_owned(0x1000, d.data());
  std::array<uint8_t, 128> data{}, be{};
  data[20] = 0xab, be[20] = 1;
  // Not forwarded: L2's copy may be older than ours, and the owner writes
  // its bytes back when it gives the line up.
  CHECK(l1.store(0x1000, data.data(), be.data()).kind == L1Outcome::Kind::Hit);
  auto wb = l1.give_up(0x1000);
  REQUIRE(wb);
  CHECK(wb->dirty.test(20));
  CHECK(wb->dirty.count() == 1);
  CHECK(wb->data[20] == 0xab);
  CHECK(wb->data[21] == d[21]);

  // The same store to a line that is not owned is forwarded, as without hLRC.
  l1.fill(0x2000, 0xf, d.data());
  CHECK(l1.store(0x2000, data.data(), be.data()).kind == L1Outcome::Kind::Forward);
}

TEST_CASE("l1 hlrc: a grant replaces a stale copy of the line", "[l1][hlrc]") {
  StatGroup g;
  L1Core l1(hlrc_spec(), g);
  auto old = line_of(0), grant = line_of(0x80);
  l1.fill(0x1000, 0b0011, old.data());
  l1.install_owned(0x1000, grant.data());
  std::array<uint8_t, 128> out{};
  REQUIRE(l1.load(0x1000, 0xf, out.data()).kind == L1Outcome::Kind::Hit);
  CHECK(out == grant);
  CHECK_THROWS_AS(l1.install_owned(0x1000, grant.data()), std::logic_error); // already owned
}

TEST_CASE("l1 hlrc: an owned line shares capacity and its eviction is a release", "[l1][hlrc]") {
  StatGroup g;
  L1Core l1(hlrc_spec(), g);
  auto d = line_of(1);
  l1.install_owned(0x000, d.data()); // set 0, way 0 (older)
  l1.fill(0x100, 0xf, d.data());     // set 0, way 1
  // A data fill of a third set-0 line evicts the LRU way: the owned line,
  // clean (no local update), still released.
  auto wb = l1.fill(0x200, 0xf, d.data());
  REQUIRE(wb);
  CHECK(wb->owned);
  CHECK(wb->line == 0x000);
  CHECK(wb->dirty.none());
  CHECK(counter(g, "hlrc_owned_evictions") == 1);
  CHECK(counter(g, "writebacks") == 0); // not a data write-back

  // A grant can evict a data line too (a clean one needs nothing).
  CHECK_FALSE(l1.install_owned(0x000, d.data())); // evicts 0x100 (LRU, clean)
  GpuAccess a = add_u32(0, 1);
  REQUIRE(l1.local_atomic(a, 0x000));
  // ...and an owned, updated line as the victim of another grant.
  l1.fill(0x200, 0xf, d.data()); // touch 0x200 so 0x000 is LRU
  auto v = l1.install_owned(0x100, d.data());
  REQUIRE(v);
  CHECK(v->owned);
  CHECK(v->line == 0x000);
  CHECK(v->dirty.all(0, 4));
}

TEST_CASE("l1 hlrc: kernel end gives every owned line up; nothing may drop one", "[l1][hlrc]") {
  StatGroup g;
  L1Core l1(hlrc_spec(), g);
  auto d = line_of(2);
  l1.install_owned(0x000, d.data());
  l1.install_owned(0x080, d.data()); // set 1
  l1.fill(0x100, 0xf, d.data());
  // invalidate_all / flush must not silently lose (or half-release) an owned line.
  CHECK_THROWS_AS(l1.invalidate_all(), std::logic_error);
  CHECK_THROWS_AS(l1.flush(), std::logic_error);
  CHECK(l1.owned(0x000));
  auto all = l1.give_up_all();
  REQUIRE(all.size() == 2);
  for (const Writeback& wb : all)
    CHECK(wb.owned);
  CHECK_FALSE(l1.owned(0x000));
  CHECK_FALSE(l1.owned(0x080));
  CHECK(l1.flush().empty());
  l1.invalidate_all(); // the data line is dropped normally now
  std::array<uint8_t, 128> out{};
  CHECK(l1.load(0x100, 1, out.data()).kind == L1Outcome::Kind::Miss);
}

TEST_CASE("l1 hlrc: a write-back L1's owned line keeps its stores dirty", "[l1][hlrc]") {
  StatGroup g;
  L1Core l1(hlrc_spec("write_back"), g);
  auto d = line_of(3);
  l1.install_owned(0x1000, d.data());
  std::array<uint8_t, 128> data{}, be{};
  data[64] = 9, be[64] = 1;
  CHECK(l1.store(0x1000, data.data(), be.data()).kind == L1Outcome::Kind::Hit);
  GpuAccess a = add_u32(4, 2);
  REQUIRE(l1.local_atomic(a, 0x1000));
  auto wb = l1.give_up(0x1000);
  REQUIRE(wb);
  CHECK(wb->dirty.count() == 5);
  CHECK(wb->data[64] == 9);
}

TEST_CASE("l1 hlrc: owned-line calls need atomic_mode = hlrc", "[l1][hlrc]") {
  StatGroup g;
  L1Spec s = hlrc_spec();
  s.atomic_mode = "bypass";
  L1Core l1(s, g);
  auto d = line_of(0);
  CHECK_THROWS_AS(l1.install_owned(0x1000, d.data()), std::logic_error);
  CHECK(g.find("hlrc_local_atomics") == nullptr); // no hLRC stats without hLRC
}
