// Cycle values below are worked out by hand from the Titan V HBM2 defaults
// (seed-000 section 2.2): tRCD=tCL=tRP=12, tRAS=28, tRC=40, tWL=2, tWR=10,
// tCCD=1, tRRD=3, burst 2 beats at DDR = 1 cycle, fixed latency 46.
#include "models/dram/dram_core.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

namespace {
DramSpec titanv() {
  auto s = defaults<DramSpec>();
  s.derive();
  return s;
}
// Defaults with some fields changed, re-derived (burst_cycles depends on them).
template <class F>
DramSpec titanv_with(F&& change) {
  auto s = defaults<DramSpec>();
  change(s);
  s.derive();
  return s;
}
} // namespace

TEST_CASE("dram core: peak bandwidth of the Titan V defaults", "[dram]") {
  auto s = titanv();
  CHECK(s.burst_cycles == 1);
  CHECK(s.burst_bytes == 32);
  // 24 channels x 16 B x 2 beats/cycle x 850 MHz.
  CHECK(s.peak_bytes_per_s == Approx(652.8e9));
}

TEST_CASE("dram core: rejects an underived spec and unknown policies", "[dram]") {
  CHECK_THROWS_AS(DramChannelCore(defaults<DramSpec>()), ConfigError);
  CHECK_THROWS_AS(DramChannelCore(titanv_with([](DramSpec& s) { s.scheduler = "lru"; })),
                  ConfigError);
  CHECK_THROWS_AS(DramChannelCore(titanv_with([](DramSpec& s) { s.page_policy = "ajar"; })),
                  ConfigError);
}

TEST_CASE("dram core: unloaded row hit < closed < conflict", "[dram]") {
  DramChannelCore c(titanv());

  auto closed = c.service(0, 1, false, 1, 1000);
  CHECK(closed.row == RowOutcome::Closed);
  CHECK(closed.start == 1000);
  CHECK(closed.done - 1000 == 46 + 12 + 12 + 1); // latency + tRCD + tCL + burst = 71

  auto hit = c.service(0, 1, false, 1, 2000);
  CHECK(hit.row == RowOutcome::Hit);
  CHECK(hit.start == 2000);
  CHECK(hit.done - 2000 == 46 + 12 + 1); // 59

  auto conflict = c.service(0, 2, false, 1, 3000);
  CHECK(conflict.row == RowOutcome::Conflict);
  CHECK(conflict.start == 3000);
  CHECK(conflict.done - 3000 == 46 + 12 + 12 + 12 + 1); // + tRP = 83
  CHECK(c.row_open(0, 2));
  CHECK_FALSE(c.row_open(0, 1));

  SECTION("writes use tWL, multi-burst accesses stream their bursts") {
    auto w = c.service(1, 9, true, 1, 4000);
    CHECK(w.row == RowOutcome::Closed);
    CHECK(w.done - 4000 == 46 + 12 + 2 + 1);     // 61
    auto line = c.service(2, 9, false, 4, 5000); // 128 B line = 4 bursts of 32 B
    CHECK(line.done - 5000 == 71 + 3);
  }
}

TEST_CASE("dram core: back-to-back row hits are limited by the data bus", "[dram]") {
  // Long bursts (8 beats = 4 cycles) so the bus, not tCCD, is the limit.
  auto spec = titanv_with([](DramSpec& s) { s.burst_length = 8; });
  REQUIRE(spec.burst_cycles == 4);
  DramSpec specs[] = {titanv(), spec};
  for (const DramSpec& s : specs) {
    DYNAMIC_SECTION("burst_cycles " << s.burst_cycles) {
      DramChannelCore c(s);
      c.service(3, 42, false, 1, 0); // open the row
      constexpr int n = 16;
      Cycle first = 0, last = 0;
      for (int i = 0; i < n; ++i) {
        auto t = c.service(3, 42, false, 1, 100); // all queued at once
        CHECK(t.row == RowOutcome::Hit);
        if (i == 0) first = t.done;
        last = t.done;
      }
      CHECK(first - 100 == 46 + 12 + s.burst_cycles);
      CHECK(last - first == (n - 1) * Cycle{s.burst_cycles});
      CHECK(c.counters().data_bus_busy_cycles == (n + 1) * Cycle{s.burst_cycles});
      // A 4-burst line holds the bus for 4 bursts even when tCCD is shorter.
      auto line = c.service(3, 42, false, 4, 10000);
      CHECK(line.done - 10000 == 46 + 12 + 4 * s.burst_cycles);
    }
  }
}

TEST_CASE("dram core: tCCD spaces column commands when bursts are short", "[dram]") {
  DramChannelCore c(titanv_with([](DramSpec& s) { s.tCCD = 4; }));
  c.service(0, 1, false, 1, 0);
  auto a = c.service(0, 1, false, 1, 100);
  auto b = c.service(0, 1, false, 1, 100);
  CHECK(b.done - a.done == 4);
  // Within one multi-burst access as well: 3 bursts take 2*tCCD + 1.
  auto m = c.service(0, 1, false, 3, 1000);
  CHECK(m.done - 1000 == 46 + 12 + 2 * 4 + 1);
  // The next column command waits tCCD after the access's *last* one (1008).
  auto after = c.service(0, 1, false, 1, 1000);
  CHECK(after.start == 1012);
  CHECK(after.done == 1012 + 12 + 1 + 46);
}

TEST_CASE("dram core: reads and writes share one data bus", "[dram]") {
  DramChannelCore c(titanv());
  c.service(0, 1, false, 1, 0);
  c.service(1, 1, false, 1, 0);
  auto r = c.service(0, 1, false, 1, 200); // data on the bus at 212..213
  auto w = c.service(1, 1, true, 1, 210);  // would be 212..213 without the bus
  CHECK(r.done == 200 + 59);
  CHECK(w.done == r.done + 1); // its data follows the read's on the bus
}

TEST_CASE("dram core: a later row hit uses the bus while a new row opens", "[dram]") {
  // What a command-level FR-FCFS controller does, and busy-until state did not:
  // the conflict's data comes at 200 + tRP + tRCD + tCL = 236, the hit to
  // another bank, scheduled after it, has its data on the bus at 213.
  DramChannelCore c(titanv());
  c.service(0, 1, false, 1, 0);
  c.service(1, 1, false, 1, 0);
  auto conflict = c.service(0, 2, false, 1, 200);
  auto hit = c.service(1, 1, false, 1, 201);
  CHECK(conflict.done == 200 + 12 + 12 + 12 + 1 + 46);
  CHECK(hit.row == RowOutcome::Hit);
  CHECK(hit.done == 201 + 12 + 1 + 46);
  CHECK(hit.done < conflict.done);
}

TEST_CASE("dram core: an access to the row being opened waits for its activation", "[dram]") {
  DramChannelCore c(titanv());
  auto first = c.service(0, 4, false, 1, 100); // ACT at 100, column at 112
  auto second = c.service(0, 4, false, 1, 101);
  CHECK(second.row == RowOutcome::Hit);
  CHECK(second.done == first.done + 1); // the next column slot, not another ACT
  CHECK(c.counters().activates == 1);
}

TEST_CASE("dram core: tRRD separates activates to different banks", "[dram]") {
  DramChannelCore c(titanv());
  for (uint32_t bank = 0; bank < 4; ++bank) {
    auto t = c.service(bank, 7, false, 1, 0);
    CHECK(t.row == RowOutcome::Closed);
    CHECK(t.start == 3 * bank);
    CHECK(t.done == 71 + 3 * bank); // bus alone would allow 71 + bank
  }
  CHECK(c.counters().activates == 4);
}

TEST_CASE("dram core: same-bank activate and precharge constraints", "[dram]") {
  SECTION("tRC bounds activate-to-activate when longer than tRAS + tRP") {
    DramChannelCore c(titanv_with([](DramSpec& s) { s.tRC = 50; }));
    c.service(0, 1, false, 1, 0);          // ACT at 0
    auto t = c.service(0, 2, false, 1, 0); // PRE at 38 (tRC - tRP), ACT at 50 (tRC)
    CHECK(t.row == RowOutcome::Conflict);
    CHECK(t.start == 38);
    CHECK(t.done == 50 + 12 + 12 + 1 + 46);
  }
  SECTION("tRAS delays the precharge, then tRP the activate") {
    DramChannelCore c(titanv_with([](DramSpec& s) { s.tRAS = 35; }));
    c.service(0, 1, false, 1, 0);
    auto t = c.service(0, 2, false, 1, 0); // PRE at 35, ACT at 47
    CHECK(t.start == 35);
    CHECK(t.done == 47 + 12 + 12 + 1 + 46);
  }
  SECTION("tWR after write data delays the precharge") {
    DramChannelCore c(titanv_with([](DramSpec& s) { s.tWR = 30; }));
    c.service(0, 1, true, 1, 0);           // ACT 0, WR 12, data 14..15
    auto t = c.service(0, 2, false, 1, 0); // PRE at 15 + 30 = 45, ACT at 57
    CHECK(t.start == 45);
    CHECK(t.done == 57 + 12 + 12 + 1 + 46);
  }
}

TEST_CASE("dram core: closed page policy precharges after every access", "[dram]") {
  DramChannelCore c(titanv_with([](DramSpec& s) {
    s.page_policy = "closed";
    s.tRP = 20; // longer than tRC - tRAS, so tRP (not tRC) decides the re-activate
  }));
  auto a = c.service(0, 5, false, 1, 0);
  CHECK(a.row == RowOutcome::Closed);
  CHECK(a.done == 71);
  CHECK_FALSE(c.row_open(0, 5));
  // Same row again at once: auto-precharge at 28 (tRAS), ACT at 28 + tRP = 48.
  auto b = c.service(0, 5, false, 1, 0);
  CHECK(b.row == RowOutcome::Closed);
  CHECK(b.start == 48);
  CHECK(b.done == 48 + 12 + 12 + 1 + 46);
  // Long after: an ordinary closed-row access, never a hit or conflict.
  auto d = c.service(0, 6, false, 1, 1000);
  CHECK(d.row == RowOutcome::Closed);
  CHECK(d.done == 1071);
  CHECK(c.counters().row_hits == 0);
  CHECK(c.counters().row_conflicts == 0);
  CHECK(c.counters().precharges == 3);
}

TEST_CASE("dram core: scheduler choice", "[dram]") {
  auto fr = titanv();
  auto fc = titanv_with([](DramSpec& s) { s.scheduler = "fcfs"; });
  DramChannelCore frfcfs(fr), fcfs(fc);
  frfcfs.service(0, 7, false, 1, 0); // row 7 open in bank 0
  fcfs.service(0, 7, false, 1, 0);

  const std::vector<PendingDram> q = {
      {0, 3, false, 10, 100}, // oldest, row miss
      {0, 7, false, 20, 101}, // younger, row hit
      {0, 7, true, 20, 102},  // same age hit: loses the tie to index 1
  };
  CHECK(frfcfs.pick(q, 50) == 1);
  CHECK(fcfs.pick(q, 50) == 0);
  // The hit has not arrived yet at cycle 15: only the miss is eligible.
  CHECK(frfcfs.pick(q, 15) == 0);
  CHECK(frfcfs.pick(q, 5) == q.size());
  CHECK(frfcfs.pick({}, 5) == 0);

  // Without any row hit, FR-FCFS is FCFS by arrival, not by queue position.
  const std::vector<PendingDram> misses = {{1, 1, false, 8, 1}, {2, 2, false, 4, 2}};
  CHECK(frfcfs.pick(misses, 50) == 1);
  CHECK(fcfs.pick(misses, 50) == 1);
  const std::vector<PendingDram> same_age = {{1, 1, false, 4, 1}, {2, 2, false, 4, 2}};
  CHECK(fcfs.pick(same_age, 50) == 0);
  CHECK(frfcfs.pick(same_age, 50) == 0);
}

TEST_CASE("dram core: injected tie-breaks choose only among equals", "[dram][jitter]") {
  DramChannelCore c(titanv());
  c.service(0, 7, false, 1, 0); // row 7 open in bank 0
  const std::vector<PendingDram> q = {
      {1, 3, false, 10, 0}, // miss
      {0, 7, false, 20, 1}, // hits of equal age: any of the three may go
      {0, 7, true, 20, 2},  //
      {0, 7, false, 20, 3}, //
      {0, 7, false, 30, 4}, // younger hit
  };
  JitterStream ties(1, "dram/ties");
  std::vector<int> chosen(q.size(), 0);
  for (int i = 0; i < 300; ++i)
    ++chosen[c.pick(q, 50, &ties)];
  CHECK(chosen[0] == 0);
  CHECK(chosen[4] == 0);
  for (size_t i = 1; i <= 3; ++i)
    CHECK(chosen[i] > 50); // about 100 each
  // Without a tie nothing is drawn: the stream is where it was.
  const std::vector<PendingDram> clear = {{1, 3, false, 10, 0}, {0, 7, false, 20, 1}};
  JitterStream untouched(1, "dram/ties"), reference(1, "dram/ties");
  CHECK(c.pick(clear, 50, &untouched) == 1);
  CHECK(untouched.next() == reference.next());
  // Among misses only (no open row hit), the oldest arrivals tie.
  const std::vector<PendingDram> misses = {{1, 1, false, 4, 1}, {2, 2, false, 4, 2}};
  std::vector<int> m(2, 0);
  for (int i = 0; i < 100; ++i)
    ++m[c.pick(misses, 50, &ties)];
  CHECK(m[0] > 20);
  CHECK(m[1] > 20);
}

TEST_CASE("dram core: counters", "[dram]") {
  DramChannelCore c(titanv());
  c.service(0, 1, false, 1, 0);   // closed
  c.service(0, 1, true, 2, 100);  // hit
  c.service(0, 2, false, 4, 200); // conflict
  const auto& k = c.counters();
  CHECK(k.reads == 2);
  CHECK(k.writes == 1);
  CHECK(k.bursts == 7);
  CHECK(k.row_hits == 1);
  CHECK(k.row_closed == 1);
  CHECK(k.row_conflicts == 1);
  CHECK(k.activates == 2);
  CHECK(k.precharges == 1);
  CHECK(k.data_bus_busy_cycles == 7);
}
