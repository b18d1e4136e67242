// The sRSP L1's tables and the L2 line lock (seed-002 §6.7 A).
#include "models/scoped/sync_tables.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu::scoped;

TEST_CASE("sFIFO keeps order, counts entries per line and never reuses a sequence number",
          "[scoped]") {
  SFifo f(3);
  uint64_t a = f.push(0x40), b = f.push(0x80), c = f.push(0x40);
  REQUIRE(f.full());
  REQUIRE((a < b && b < c));
  REQUIRE(f.holds(0x40));
  REQUIRE_THROWS_AS(f.push(0xc0), std::logic_error); // the owner pops first
  REQUIRE(f.pop().seq == a);
  REQUIRE(f.holds(0x40)); // its second entry is still there
  REQUIRE(f.pop().line == 0x80);
  REQUIRE(!f.holds(0x80));
  uint64_t d = f.push(0xc0);
  REQUIRE(d > c);
  REQUIRE(f.slot(d) == d % 3); // what the slot-pointer mutation compares
}

TEST_CASE("LR-TBL: upsert moves the marker, an entry leaves with its sFIFO entry", "[scoped]") {
  LrTable lr(4);
  lr.upsert(0x40, 1);
  lr.upsert(0x40, 5);
  REQUIRE(lr.size() == 1);
  REQUIRE(*lr.lookup(0x40) == 5);
  lr.forget(1); // the old marker's entry popping does not drop the new one
  REQUIRE(lr.lookup(0x40));
  lr.forget(5);
  REQUIRE(!lr.lookup(0x40));
  for (Addr k = 0; k < 4; ++k)
    lr.upsert(k * 64, k);
  REQUIRE_THROWS_AS(lr.upsert(0x1000, 9), std::logic_error); // never more than the sFIFO
  lr.clear();
  REQUIRE(lr.size() == 0);
}

TEST_CASE("PA-TBL: insert, hit, full, the lazy overflow flag and clearing", "[scoped]") {
  PaTable pa(2);
  REQUIRE(pa.insert(0x40));
  REQUIRE(pa.insert(0x40)); // already there: no new entry
  REQUIRE(pa.insert(0x80));
  REQUIRE(pa.full());
  REQUIRE(!pa.insert(0xc0));
  REQUIRE(pa.hit(0x40));
  REQUIRE(!pa.hit(0xc0));
  pa.set_overflowed(); // lazy policy: every acquire is promoted
  REQUIRE(pa.hit(0xc0));
  pa.clear();
  REQUIRE((!pa.hit(0x40) && !pa.overflowed() && pa.size() == 0));
}

TEST_CASE("L2 line lock: holder admitted, others parked, FIFO hand-over", "[scoped]") {
  L2LineLock l;
  REQUIRE(l.request(0x40, 1));
  REQUIRE(!l.request(0x40, 2));
  REQUIRE(!l.request(0x40, 3));
  REQUIRE(l.admits(0x40, 1));
  REQUIRE(!l.admits(0x40, 2));
  REQUIRE(l.admits(0x80, 2)); // other lines are free
  REQUIRE_THROWS_AS(l.unlock(0x40, 2), std::logic_error);
  l.unlock(0x40, 1);
  REQUIRE(l.holds(0x40, 2));
  l.unlock(0x40, 2);
  REQUIRE(l.holds(0x40, 3));
  l.unlock(0x40, 3);
  REQUIRE(!l.locked(0x40));
}
