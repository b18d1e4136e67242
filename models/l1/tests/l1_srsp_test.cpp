// sRSP's tables in the scoped L1 (l1.rsp = srsp; l1_core_srsp.cpp): LR-TBL
// markers pushed by cta-scope releases, the drain up to a marker, markers
// leaving with their sFIFO entries, the PA-TBL and its two full policies.
// 2 sets x 4 ways x 128 B lines; an sFIFO of 4 entries, a PA-TBL of 2.
#include "models/l1/l1_core.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstring>

using namespace tlmgpu;

namespace {

L1Spec srsp_spec(const char* pa_full = "eager", const char* fault = "none") {
  auto s = defaults<L1Spec>();
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.ways = 4;
  s.sets = 2;
  s.bytes = s.sets * s.ways * s.line_bytes;
  s.sectors_per_line = 4;
  s.atomic_mode = "scoped";
  s.rsp = "srsp";
  s.sfifo_entries = 4;
  s.pa_entries = 2;
  s.pa_full = pa_full;
  s.inject_fault = fault;
  return s;
}

void store_word(L1Core& c, Addr line, uint8_t v) {
  std::array<uint8_t, 128> data{}, be{};
  std::memset(data.data(), v, 4);
  std::memset(be.data(), 1, 4);
  c.store(line, data.data(), be.data());
}

} // namespace

TEST_CASE("l1 srsp: a SelFlush drains up to the marker, not past it", "[l1][srsp]") {
  StatGroup g;
  L1Core c(srsp_spec(), g);
  store_word(c, 0x000, 1);         // Y
  CHECK_FALSE(c.srsp_mark(0x800)); // release of F: marker behind Y
  store_word(c, 0x100, 2);         // Z, after the release
  CHECK(c.srsp_marks(0x800));
  CHECK(c.lr_size() == 1);
  const std::vector<Writeback> wb = c.srsp_drain_to_marker(0x800);
  REQUIRE(wb.size() == 1); // Y only: F's line is clean (its atomic is at L2)
  CHECK(wb[0].line == 0x000);
  CHECK_FALSE(c.srsp_marks(0x800)); // the marker left with its entry
  CHECK(c.sfifo_size() == 1);       // Z stays
  CHECK(c.srsp_drain_to_marker(0x800).empty());
}

TEST_CASE("l1 srsp: a marker leaves with its sFIFO entry on overflow", "[l1][srsp]") {
  StatGroup g;
  L1Core c(srsp_spec(), g);
  store_word(c, 0x000, 1);
  c.srsp_mark(0x800);
  c.srsp_mark(0x800); // a second release: a fresh entry, the marker moves
  store_word(c, 0x100, 2);
  CHECK(c.sfifo_size() == 4);
  store_word(c, 0x180, 3); // pops Y (written back)
  CHECK(c.srsp_marks(0x800));
  c.srsp_mark(0x880); // pops the first 0x800 entry: the live marker is the second
  CHECK(c.srsp_marks(0x800));
  store_word(c, 0x200, 4); // pops the live marker of 0x800
  CHECK_FALSE(c.srsp_marks(0x800));
  CHECK(c.srsp_marks(0x880));
}

TEST_CASE("l1 srsp: the PA-TBL promotes, a flash invalidation empties it", "[l1][srsp]") {
  StatGroup g;
  L1Core c(srsp_spec(), g);
  CHECK_FALSE(c.srsp_promotes(0x800));
  CHECK_FALSE(c.srsp_pa_insert(0x800));
  CHECK(c.srsp_promotes(0x800));
  CHECK_FALSE(c.srsp_promotes(0x880));
  c.scoped_acquire();
  CHECK_FALSE(c.srsp_promotes(0x800));
  CHECK(c.pa_size() == 0);
}

TEST_CASE("l1 srsp: a full PA-TBL falls back (eager: invalidate now; lazy: promote all)",
          "[l1][srsp]") {
  StatGroup g1, g2;
  L1Core eager(srsp_spec("eager"), g1), lazy(srsp_spec("lazy"), g2);
  for (L1Core* c : {&eager, &lazy}) {
    CHECK_FALSE(c->srsp_pa_insert(0x800));
    CHECK_FALSE(c->srsp_pa_insert(0x880));
    CHECK(c->srsp_pa_insert(0x900)); // full: an overflow
  }
  // Eager flash-invalidated and kept only the new line.
  CHECK(eager.pa_size() == 1);
  CHECK(eager.srsp_promotes(0x900));
  CHECK_FALSE(eager.srsp_promotes(0x800));
  // Lazy promotes every acquire until its next invalidation.
  CHECK(lazy.srsp_promotes(0x800));
  CHECK(lazy.srsp_promotes(0x1234000));
  lazy.scoped_acquire();
  CHECK_FALSE(lazy.srsp_promotes(0x1234000));
}

TEST_CASE("l1 srsp: the injected faults skip the marker and the PA-TBL insert", "[l1][srsp]") {
  StatGroup g1, g2;
  L1Core no_marker(srsp_spec("eager", "skip_lr_marker"), g1);
  no_marker.srsp_mark(0x800);
  CHECK_FALSE(no_marker.srsp_marks(0x800));
  L1Core no_pa(srsp_spec("eager", "skip_pa_insert"), g2);
  no_pa.srsp_pa_insert(0x800);
  CHECK_FALSE(no_pa.srsp_promotes(0x800));
}
