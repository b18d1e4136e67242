// L1 core in scoped mode (l1.atomic_mode = scoped): write-combining stores,
// the sFIFO of dirty lines, release drains and acquire flash invalidation.
// 2 sets x 4 ways x 128 B lines of 4 x 32 B sectors; an sFIFO of 2 entries
// so that overflow is easy to reach.
#include "models/l1/l1_core.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstring>

using namespace tlmgpu;

namespace {

L1Spec scoped_spec(uint32_t sfifo = 2) {
  auto s = defaults<L1Spec>();
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.ways = 4;
  s.sets = 2;
  s.bytes = s.sets * s.ways * s.line_bytes;
  s.sectors_per_line = 4;
  s.atomic_mode = "scoped"; // implies write_back, write_allocate, lazy_on_read
  s.sfifo_entries = sfifo;
  return s;
}

uint64_t counter(const StatGroup& g, const char* name) {
  auto* c = dynamic_cast<const Counter*>(g.find(name));
  REQUIRE(c);
  return c->value();
}

// Stores `v` into the first 4 bytes of `line`.
L1Outcome store_word(L1Core& c, Addr line, uint8_t v) {
  std::array<uint8_t, 128> data{}, be{};
  std::memset(data.data(), v, 4);
  std::memset(be.data(), 1, 4);
  return c.store(line, data.data(), be.data());
}

} // namespace

TEST_CASE("l1 scoped: a store is write-combined, no fetch, and a load of its bytes hits",
          "[l1][scoped]") {
  StatGroup g;
  L1Core c(scoped_spec(), g);
  const L1Outcome o = store_word(c, 0x1000, 7);
  CHECK(o.kind == L1Outcome::Kind::Hit);
  CHECK(c.sfifo_size() == 1);
  std::array<uint8_t, 128> out{};
  // The store wrote 4 bytes of sector 0: the rest of the sector is missing.
  CHECK(c.load(0x1000, 0b0001, out.data()).kind == L1Outcome::Kind::Miss);
  store_word(c, 0x1000, 8); // same line: no second entry
  CHECK(c.sfifo_size() == 1);
}

TEST_CASE("l1 scoped: dirtying one line more than the sFIFO holds writes the oldest back",
          "[l1][scoped]") {
  StatGroup g;
  L1Core c(scoped_spec(2), g);
  store_word(c, 0x000, 1);
  store_word(c, 0x080, 2);
  const L1Outcome o = store_word(c, 0x100, 3);
  REQUIRE(o.sfifo_overflow);
  CHECK(o.sfifo_overflow->line == 0x000);
  CHECK(o.sfifo_overflow->data[0] == 1);
  CHECK(o.sfifo_overflow->dirty.count() == 4);
  CHECK(counter(g, "sfifo_overflows") == 1);
  CHECK(c.sfifo_size() == 2);
  // The written-back line stays valid and clean: the release drains only the rest.
  const auto wbs = c.scoped_release();
  REQUIRE(wbs.size() == 2);
  CHECK(wbs[0].line == 0x080); // sFIFO order
  CHECK(wbs[1].line == 0x100);
  CHECK(c.sfifo_size() == 0);
  CHECK(counter(g, "sfifo_drains") == 1);
  CHECK(counter(g, "sfifo_lines_flushed") == 2);
  CHECK(c.scoped_release().empty());
}

TEST_CASE("l1 scoped: an acquire drops clean copies and keeps only dirty bytes", "[l1][scoped]") {
  StatGroup g;
  L1Core c(scoped_spec(), g);
  std::array<uint8_t, 128> line{};
  line.fill(9);
  c.fill(0x200, 0b1111, line.data()); // a clean copy read from L2
  c.fill(0x300, 0b1111, line.data());
  store_word(c, 0x300, 5); // now dirty in 4 bytes, the rest clean (possibly stale)
  std::array<uint8_t, 128> out{};
  REQUIRE(c.load(0x200, 0b0001, out.data()).kind == L1Outcome::Kind::Hit);
  c.scoped_acquire();
  CHECK(c.load(0x200, 0b0001, out.data()).kind == L1Outcome::Kind::Miss);
  CHECK(c.load(0x300, 0b0010, out.data()).kind == L1Outcome::Kind::Miss); // clean bytes gone
  CHECK(counter(g, "scoped_lines_invalidated") == 1);
  CHECK(counter(g, "scoped_lines_trimmed") == 1);
  // Its own write survives the acquire and is still released.
  const auto wbs = c.scoped_release();
  REQUIRE(wbs.size() == 1);
  CHECK(wbs[0].line == 0x300);
  CHECK(wbs[0].data[0] == 5);
}

TEST_CASE("l1 scoped: a victim's write-back leaves a stale sFIFO entry that drains nothing",
          "[l1][scoped]") {
  StatGroup g;
  L1Core c(scoped_spec(16), g);
  // Set 0 has 4 ways: the fifth dirty line of the set evicts the first.
  int victims = 0;
  for (Addr l = 0; l < 5; ++l)
    victims += store_word(c, l * 0x100, uint8_t(l + 1)).writeback.has_value();
  CHECK(victims == 1);
  CHECK(c.sfifo_size() == 5);
  CHECK(c.scoped_release().size() == 4);
  // The kernel end is a system release: flush() drains the sFIFO too.
  store_word(c, 0x000, 3);
  CHECK(c.flush().size() == 1);
  CHECK(c.sfifo_size() == 0);
  c.invalidate_all();
}

TEST_CASE("l1 scoped: an atomic performed at L2 writes back and drops its sectors first",
          "[l1][scoped]") {
  StatGroup g;
  L1Core c(scoped_spec(), g);
  store_word(c, 0x000, 4);
  const auto wb = c.atomic(0x000, 0b0001);
  REQUIRE(wb);
  CHECK(wb->data[0] == 4);
  CHECK(c.scoped_release().empty()); // its entry drains nothing now
}
