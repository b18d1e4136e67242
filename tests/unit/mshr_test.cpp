// MSHR allocation, merging limits, refusals, release order and LT expiry.
#include "tlmgpu/mshr.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

using namespace tlmgpu;

TEST_CASE("first waiter allocates, later ones merge up to max_merge", "[mshr]") {
  MshrTable<int> m(2, 3);
  CHECK(m.add(0x100, 1) == MshrOutcome::Allocated);
  CHECK(m.pending(0x100));
  CHECK_FALSE(m.pending(0x180));
  CHECK(m.add(0x100, 2) == MshrOutcome::Merged);
  CHECK(m.add(0x100, 3) == MshrOutcome::Merged);
  CHECK(m.waiters_of(0x100) == 3);
  CHECK(m.probe(0x100) == MshrOutcome::MergeFull);
  CHECK(m.add(0x100, 4) == MshrOutcome::MergeFull); // max_merge counts the allocating waiter
  CHECK(m.waiters_of(0x100) == 3);
  CHECK(m.size() == 1);
  CHECK(m.allocated() == 1);
  CHECK(m.merged() == 2);
  CHECK(m.refused_merge() == 1);
  CHECK(m.refused_full() == 0);
}

TEST_CASE("a full table refuses new lines but still merges pending ones", "[mshr]") {
  MshrTable<int> m(2, 4);
  CHECK(m.add(0x000, 1) == MshrOutcome::Allocated);
  CHECK(m.add(0x080, 2) == MshrOutcome::Allocated);
  CHECK(m.full());
  CHECK(m.probe(0x100) == MshrOutcome::NoEntry);
  CHECK(m.add(0x100, 3) == MshrOutcome::NoEntry);
  CHECK_FALSE(m.pending(0x100));
  CHECK(m.add(0x080, 4) == MshrOutcome::Merged);
  CHECK(m.refused_full() == 1);
  CHECK(m.occupancy() == 2);
  CHECK(m.max_occupancy() == 2);
  m.release(0x000);
  CHECK(m.add(0x100, 5) == MshrOutcome::Allocated); // the freed entry is reusable
  CHECK(m.allocated() == 3);
}

TEST_CASE("release returns waiters in arrival order and frees the entry", "[mshr]") {
  MshrTable<int> m(4, 8);
  for (int w : {7, 3, 9, 1})
    m.add(0x200, w);
  m.add(0x300, 42);
  CHECK(m.release(0x200) == std::vector<int>{7, 3, 9, 1});
  CHECK_FALSE(m.pending(0x200));
  CHECK(m.size() == 1);
  CHECK(m.release(0x200).empty()); // already gone
  CHECK(m.add(0x200, 5) == MshrOutcome::Allocated);
  CHECK(m.release(0x200) == std::vector<int>{5});
}

TEST_CASE("LT mode: entries expire at their ready cycle, in fill order", "[mshr]") {
  MshrTable<int> m(4, 4);
  m.add(0x000, 1);
  m.add(0x080, 2);
  m.add(0x080, 3);
  m.add(0x100, 4);
  m.add(0x180, 5); // never given a ready cycle
  m.set_ready(0x000, 50);
  m.set_ready(0x080, 20);
  m.set_ready(0x100, 20);
  CHECK(m.ready_of(0x080) == Cycle{20});
  CHECK_FALSE(m.ready_of(0x180).has_value());
  CHECK_FALSE(m.ready_of(0x999).has_value());
  CHECK_THROWS_AS(m.set_ready(0x999, 1), std::out_of_range);

  CHECK(m.expire(19).empty());
  auto done = m.expire(20); // ready == now counts as done
  REQUIRE(done.size() == 2);
  CHECK(done[0].line == 0x080);
  CHECK(done[0].waiters == std::vector<int>{2, 3});
  CHECK(done[1].line == 0x100);
  CHECK_FALSE(m.pending(0x080));
  CHECK(m.pending(0x000));

  done = m.expire(1000);
  REQUIRE(done.size() == 1);
  CHECK(done[0].line == 0x000);
  CHECK(done[0].ready == 50);
  CHECK(m.pending(0x180)); // waits for an explicit release
  CHECK(m.size() == 1);
}

TEST_CASE("drop_expired frees what expire would, without a result", "[mshr]") {
  MshrTable<int> m(4, 4);
  m.add(0x000, 1);
  m.add(0x080, 2);
  m.add(0x100, 3); // never given a ready cycle
  m.set_ready(0x000, 50);
  m.set_ready(0x080, 20);
  m.drop_expired(19);
  CHECK(m.size() == 3);
  m.drop_expired(20); // ready == now counts as done
  CHECK_FALSE(m.pending(0x080));
  CHECK(m.pending(0x000));
  m.drop_expired(1000);
  CHECK_FALSE(m.pending(0x000));
  CHECK(m.pending(0x100)); // waits for an explicit release
  // The freed entries are reused, each as a fresh line with its own waiters.
  REQUIRE(m.add(0x200, 7) == MshrOutcome::Allocated);
  REQUIRE(m.add(0x280, 8) == MshrOutcome::Allocated);
  CHECK(m.release(0x200) == std::vector<int>{7});
  m.set_ready(0x280, 5);
  CHECK(m.expire(5).at(0).waiters == std::vector<int>{8});
}

TEST_CASE("expire orders by ready cycle before address", "[mshr]") {
  MshrTable<int> m(4, 1);
  m.add(0x000, 1);
  m.add(0x080, 2);
  m.set_ready(0x000, 30);
  m.set_ready(0x080, 10);
  auto done = m.expire(30);
  REQUIRE(done.size() == 2);
  CHECK(done[0].line == 0x080);
  CHECK(done[1].line == 0x000);
  CHECK_THROWS_AS(MshrTable<int>(0, 1), std::invalid_argument);
}

TEST_CASE("freed entries are reused: fill, drain and refill the table many times", "[mshr]") {
  // The entries and the index are recycled, not reallocated; a stale index
  // bucket or a lost free entry would show up as a wrong pending() or a
  // refusal below capacity.
  MshrTable<int> m(40, 2);
  for (int round = 0; round < 5; ++round) {
    const Addr base = Addr(round) * 0x100000;
    for (int i = 0; i < 40; ++i)
      REQUIRE(m.add(base + Addr(i) * 0x80, i) == MshrOutcome::Allocated);
    CHECK(m.full());
    CHECK(m.add(base + 40 * 0x80, 0) == MshrOutcome::NoEntry);
    for (int i = 0; i < 40; i += 2) // free every other line, out of order with the adds
      CHECK(m.release(base + Addr(i) * 0x80) == std::vector<int>{i});
    for (int i = 1; i < 40; i += 2)
      CHECK(m.pending(base + Addr(i) * 0x80));
    for (int i = 39; i >= 1; i -= 2)
      CHECK(m.release(base + Addr(i) * 0x80) == std::vector<int>{i});
    CHECK(m.empty());
  }
  CHECK(m.max_occupancy() == 40);
  CHECK(m.allocated() == 200);
}

namespace {
// The table's previous implementation (a std::map), kept as the reference
// for its observable behaviour.
struct RefMshr {
  struct E {
    std::vector<int> waiters;
    std::optional<Cycle> ready;
  };
  size_t entries, max_merge;
  std::map<Addr, E> t;
  MshrOutcome add(Addr line, int w) {
    auto it = t.find(line);
    if (it != t.end()) {
      if (it->second.waiters.size() >= max_merge) return MshrOutcome::MergeFull;
      it->second.waiters.push_back(w);
      return MshrOutcome::Merged;
    }
    if (t.size() >= entries) return MshrOutcome::NoEntry;
    t[line].waiters.push_back(w);
    return MshrOutcome::Allocated;
  }
  std::vector<std::pair<Addr, std::vector<int>>> expire(Cycle now) {
    std::vector<std::tuple<Cycle, Addr, std::vector<int>>> out;
    for (auto it = t.begin(); it != t.end();) {
      if (it->second.ready && *it->second.ready <= now) {
        out.emplace_back(*it->second.ready, it->first, it->second.waiters);
        it = t.erase(it);
      } else {
        ++it;
      }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    std::vector<std::pair<Addr, std::vector<int>>> r;
    for (auto& [ready, line, w] : out)
      r.emplace_back(line, w);
    return r;
  }
};
} // namespace

TEST_CASE("random adds, releases and expiries match an ordered-map reference", "[mshr]") {
  // Lines strided by large powers of two and by the line size, so probe runs
  // form and deletions must shift members of a run back; capacities below,
  // at and above the index's first size.
  for (size_t cap : {size_t{1}, size_t{7}, size_t{16}, size_t{100}}) {
    MshrTable<int> m(cap, 3);
    RefMshr ref{cap, 3, {}};
    uint64_t x = 12345 + cap;
    auto rnd = [&x](uint64_t n) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return (x >> 33) % n;
    };
    Cycle now = 0;
    for (int step = 0; step < 20000; ++step) {
      const uint64_t k = rnd(3 * cap + 5);
      const Addr line = (k % 2) ? k * 0x80 : (k << 32) + 0x1000;
      const int w = step;
      switch (rnd(6)) {
      case 0:
      case 1:
      case 2:
        REQUIRE(m.add(line, w) == ref.add(line, w));
        break;
      case 3: {
        auto it = ref.t.find(line);
        const std::vector<int> expect = it == ref.t.end() ? std::vector<int>{} : it->second.waiters;
        if (it != ref.t.end()) ref.t.erase(it);
        REQUIRE(m.release(line) == expect);
        break;
      }
      case 4:
        if (ref.t.count(line)) {
          const Cycle r = now + rnd(50);
          ref.t[line].ready = r;
          m.set_ready(line, r);
        }
        break;
      default: {
        now += rnd(20);
        auto expect = ref.expire(now);
        auto got = m.expire(now);
        REQUIRE(got.size() == expect.size());
        for (size_t i = 0; i < got.size(); ++i) {
          REQUIRE(got[i].line == expect[i].first);
          REQUIRE(got[i].waiters == expect[i].second);
        }
      }
      }
      REQUIRE(m.size() == ref.t.size());
      REQUIRE(m.pending(line) == (ref.t.count(line) != 0));
      REQUIRE(m.ready_of(line) ==
              (ref.t.count(line) ? ref.t.at(line).ready : std::optional<Cycle>{}));
    }
    // Every line the reference holds is still found, with its waiters.
    for (auto& [line, e] : ref.t)
      REQUIRE(m.waiters_of(line) == e.waiters.size());
  }
}
