// CTA placement: dynamic round robin over free slots, and deterministic i % num_sms.
#include "models/sm/cta_dispatcher.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <utility>
#include <vector>

using namespace tlmgpu;

using P = std::pair<uint32_t, uint32_t>;

TEST_CASE("cta dispatcher: round robin until every slot is full", "[cta]") {
  CtaDispatcher d(10, 3, 2, false);
  CHECK(d.next() == P{0, 0});
  CHECK(d.next() == P{1, 1});
  CHECK(d.next() == P{2, 2});
  CHECK(d.next() == P{3, 0});
  CHECK(d.next() == P{4, 1});
  CHECK(d.next() == P{5, 2});
  CHECK_FALSE(d.next()); // 3 SMs x 2 slots are busy
  CHECK(d.resident(1) == 2);
  d.retire(1);
  CHECK(d.next() == P{6, 1}); // the only free slot, wherever it is
  CHECK_FALSE(d.next());
  d.retire(0);
  d.retire(2);
  CHECK(d.next() == P{7, 2}); // searching starts after SM 1, the last one served
  CHECK(d.next() == P{8, 0});
  CHECK_FALSE(d.next());
  CHECK_FALSE(d.all_dispatched());
  d.retire(0);
  CHECK(d.next() == P{9, 0});
  CHECK(d.all_dispatched());
  CHECK_FALSE(d.next());
  CHECK_FALSE(d.all_done());
  for (uint32_t sm = 0; sm < 3; ++sm)
    while (d.resident(sm))
      d.retire(sm);
  CHECK(d.all_done());
  CHECK_THROWS_AS(d.retire(0), std::logic_error);
}

TEST_CASE("cta dispatcher: deterministic mode gives CTA i to SM i % n, each SM in order", "[cta]") {
  CtaDispatcher d(7, 3, 1, true);
  CHECK(d.next() == P{0, 0});
  CHECK(d.next() == P{1, 1});
  CHECK(d.next() == P{2, 2});
  CHECK_FALSE(d.next());
  d.retire(2);
  CHECK(d.next() == P{5, 2}); // SM 2's next CTA; a busy SM 0 does not hold it back
  CHECK_FALSE(d.next());
  d.retire(0);
  CHECK(d.next() == P{3, 0});
  CHECK_FALSE(d.next()); // CTA 4 -> SM 1, busy; SM 2 has none left
  d.retire(1);
  CHECK(d.next() == P{4, 1});
  d.retire(0);
  CHECK(d.next() == P{6, 0});
  CHECK_FALSE(d.next());
  CHECK(d.dispatched() == 7);
  CHECK(d.all_dispatched());
}

TEST_CASE("cta dispatcher: placement of the deterministic mode never depends on retire order",
          "[cta]") {
  // Two runs retire in different orders; CTA -> SM and each SM's order must match.
  for (int order = 0; order < 2; ++order) {
    CtaDispatcher d(20, 4, 2, true);
    std::vector<uint32_t> last(4, 0), got(4, 0);
    uint32_t step = 0;
    while (!d.all_dispatched()) {
      while (auto p = d.next()) {
        CHECK(p->second == p->first % 4);
        if (got[p->second]++) CHECK(p->first == last[p->second] + 4);
        last[p->second] = p->first;
      }
      const uint32_t sm = order ? 3 - (step % 4) : step % 4;
      ++step;
      for (uint32_t s = 0; s < 4; ++s)
        if (d.resident((sm + s) % 4)) {
          d.retire((sm + s) % 4);
          break;
        }
    }
    CHECK(got == std::vector<uint32_t>{5, 5, 5, 5});
  }
}

TEST_CASE("cta dispatcher: zero CTAs is done at once; bad shapes are errors", "[cta]") {
  CtaDispatcher d(0, 2, 1, false);
  CHECK(d.all_done());
  CHECK_FALSE(d.next());
  CHECK_THROWS_AS(CtaDispatcher(4, 0, 1, false), std::invalid_argument);
  CHECK_THROWS_AS(CtaDispatcher(4, 2, 0, true), std::invalid_argument);
}

TEST_CASE("cta dispatcher: injected order picks among free SMs only, deterministic ignores it",
          "[cta][jitter]") {
  // One stream across launches, as the GPU keeps it: every SM gets the first
  // CTA of some launches, and no SM ever gets more CTAs than its slots.
  JitterStream pick(5, "gpu/cta_order");
  std::vector<int> first(4, 0);
  for (int launch = 0; launch < 200; ++launch) {
    CtaDispatcher d(9, 4, 2, false, &pick);
    std::vector<uint32_t> per(4, 0);
    for (uint32_t i = 0; i < 8; ++i) {
      auto p = d.next();
      REQUIRE(p);
      CHECK(p->first == i);
      ++per[p->second];
      if (i == 0) ++first[p->second];
    }
    CHECK_FALSE(d.next()); // every slot taken
    for (uint32_t c : per)
      CHECK(c == 2);
    d.retire(2);
    CHECK(d.next() == P{8, 2}); // the only free slot
  }
  for (int f : first)
    CHECK(f > 20); // about 50 each; round robin or lowest-free would give 200 to one SM

  JitterStream unused(5, "gpu/cta_order"), reference(5, "gpu/cta_order");
  CtaDispatcher det(12, 4, 1, true, &unused);
  for (uint32_t i = 0; i < 4; ++i)
    CHECK(det.next() == P{i, i});
  CHECK(unused.next() == reference.next()); // deterministic placement drew nothing
}

TEST_CASE("cta dispatcher: with cta groups, CTA i runs on SM (i % groups) % n in order", "[cta]") {
  // 3 groups on 2 SMs: SM 0 hosts groups 0 and 2, SM 1 group 1.
  CtaDispatcher d(12, 2, 16, true, nullptr, 3);
  std::vector<std::vector<uint32_t>> got(2);
  while (auto p = d.next())
    got[p->second].push_back(p->first);
  CHECK(got[0] == std::vector<uint32_t>{0, 2, 3, 5, 6, 8, 9, 11});
  CHECK(got[1] == std::vector<uint32_t>{1, 4, 7, 10});
  // 3 groups on 4 SMs: SM 3 hosts none; groups = SMs is the plain mode.
  CtaDispatcher e(7, 4, 16, true, nullptr, 3);
  while (auto p = e.next())
    CHECK(p->second == p->first % 3);
  CHECK(e.resident(3) == 0);
  CHECK(e.all_dispatched());
}
