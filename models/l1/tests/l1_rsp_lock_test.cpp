// The AT lock of a remote operation (RspFabric's lock scope, l1_rsp_fabric.hpp;
// models/l1/README.md "The lock in AT"): bRSP's one lock of every L1 against
// sRSP's lock of the line, and what a holder waits for before it runs.
#include "models/l1/l1_rsp_fabric.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <vector>

using namespace tlmgpu;

namespace {

// Four L1s whose in-flight state a test sets: lines in flight, quiet, markers.
struct Gpu {
  RspFabric f;
  std::vector<std::set<Addr>> busy{4}, marks{4};
  std::vector<bool> quiet = std::vector<bool>(4, true);
  std::vector<int> woken = std::vector<int>(4, 0);
  explicit Gpu(RspFabric::Scope s) {
    f.set_scope(s);
    for (uint16_t sm = 0; sm < 4; ++sm)
      f.attach(
          sm, [](const RspMessage& m) { return m.at; }, [this, sm] { return bool(quiet[sm]); },
          [this, sm] { ++woken[sm]; }, [this, sm](Addr l) { return marks[sm].count(l) != 0; },
          [this, sm](Addr l) { return busy[sm].count(l) != 0; });
  }
};

} // namespace

TEST_CASE("rsp lock: bRSP's lock holds every L1's head, whatever the line", "[l1][rsp]") {
  Gpu g(RspFabric::Scope::EveryL1);
  g.f.ask(1, 0x80, true);
  CHECK(g.f.holds(1, 0x80));
  CHECK(g.f.locked_by_other(0, 0x80));
  CHECK(g.f.locked_by_other(2, 0x1000)); // another line: held too
  g.quiet[3] = false;                    // one L1 busy anywhere: not yet
  CHECK_FALSE(g.f.ready(1, 0x80));
  g.quiet[3] = true;
  CHECK(g.f.ready(1, 0x80));
  g.f.ran(1);
  g.f.unlock(1, 0x80);
  CHECK_FALSE(g.f.locked_by_other(0, 0x80));
}

TEST_CASE("rsp lock: sRSP locks the line only, FIFO, and waits for it to be quiet", "[l1][rsp]") {
  Gpu g(RspFabric::Scope::Line);
  g.f.ask(1, 0x80, false);
  CHECK(g.f.holds(1, 0x80));
  CHECK(g.f.locked_by_other(0, 0x80));        // a request to L is parked
  CHECK_FALSE(g.f.locked_by_other(0, 0x100)); // every other line goes on
  CHECK_FALSE(g.f.locked_by_other(1, 0x80));  // the holder's own requests too

  g.quiet[2] = false; // busy with other lines: no matter (no GPU-wide wait)
  CHECK(g.f.ready(1, 0x80));
  g.busy[2].insert(0x80); // a fill of L in flight (P3): wait for it
  CHECK_FALSE(g.f.ready(1, 0x80));
  g.f.quiet_changed(0x80);
  CHECK(g.woken[1] == 0);
  g.busy[2].clear();
  g.f.quiet_changed(0x100); // another line: not this operation's business
  CHECK(g.woken[1] == 0);
  g.f.quiet_changed(0x80);
  CHECK(g.woken[1] == 1);
  CHECK(g.f.ready(1, 0x80));

  g.f.ask(3, 0x80, false); // same line: queued behind SM 1
  CHECK_FALSE(g.f.holds(3, 0x80));
  g.f.ask(0, 0x100, false); // another line: held at once
  CHECK(g.f.holds(0, 0x100));
  g.f.ask(2, 0x80, true); // a parked request of SM 2 (or an operation) queues too
  g.f.ran(1);
  g.f.unlock(1, 0x80);
  CHECK(g.f.holds(3, 0x80)); // handed over in arrival order
  CHECK(g.woken[3] >= 1);
  CHECK(g.f.held_by_other(0));
  CHECK_FALSE(g.f.flush_pending(0, [](Addr l) { return l == 0x80; })); // SM 3's does not flush
  g.f.ran(3);
  g.f.unlock(3, 0x80);
  CHECK(g.f.holds(2, 0x80));
  CHECK(g.f.flush_pending(0, [](Addr l) { return l == 0x80; })); // SM 2's does, and holds it
  g.f.ran(2);
  g.f.unlock(2, 0x80);
  g.f.ran(0);
  g.f.unlock(0, 0x100);
  CHECK_FALSE(g.f.held_by_other(1));
}

TEST_CASE("rsp lock: a SelFlush waits for the marker holders' write-backs (P4)", "[l1][rsp]") {
  Gpu g(RspFabric::Scope::Line);
  g.marks[2].insert(0x80);
  g.quiet[2] = false; // the owner has a write-back in flight
  g.quiet[3] = false; // no marker: no matter
  const auto marks2 = [&g](Addr l) { return g.marks[2].count(l) != 0; };
  const auto marks3 = [&g](Addr l) { return g.marks[3].count(l) != 0; };
  g.f.ask(1, 0x80, false); // a remote release sends no SelFlush
  CHECK(g.f.ready(1, 0x80));
  CHECK_FALSE(g.f.flush_pending(2, marks2));
  g.f.ran(1);
  g.f.unlock(1, 0x80);

  g.f.ask(1, 0x80, true); // a remote acquire does
  CHECK_FALSE(g.f.ready(1, 0x80));
  CHECK(g.f.flush_pending(2, marks2)); // the owner sends nothing new meanwhile
  CHECK_FALSE(g.f.flush_pending(3, marks3));
  const int asleep = g.woken[1];
  g.quiet[2] = true;
  g.f.quiet_changed();
  CHECK(g.woken[1] == asleep + 1);
  CHECK(g.f.ready(1, 0x80));
  const int before = g.woken[2];
  g.f.ran(1);
  CHECK_FALSE(g.f.flush_pending(2, marks2));
  CHECK(g.woken[2] > before); // the held owner is told
}
