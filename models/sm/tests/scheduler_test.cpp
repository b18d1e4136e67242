// Warp scheduler policies: LRR order, GTO greediness and its fallback to the oldest warp.
#include "models/sm/scheduler.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

using namespace tlmgpu;

namespace {

std::vector<WarpView> warps(unsigned n) {
  std::vector<WarpView> v(n);
  for (unsigned i = 0; i < n; ++i)
    v[i] = {i, true, true, i, WarpInstr::Kind::Compute};
  return v;
}

// Picks and issues `n` times; returns the issued slots (-1 when nothing issues).
std::vector<int> issue(SchedulerPolicy& p, const std::vector<WarpView>& w, unsigned n) {
  std::vector<int> out;
  for (unsigned i = 0; i < n; ++i) {
    auto s = p.pick(w);
    out.push_back(s ? int(*s) : -1);
    if (s) p.issued(*s);
  }
  return out;
}

} // namespace

TEST_CASE("lrr: round robin from the slot after the last issued", "[scheduler]") {
  LrrPolicy p;
  auto w = warps(4);
  CHECK(issue(p, w, 6) == std::vector<int>{0, 1, 2, 3, 0, 1});
  w[2].ready = false;
  w[3].valid = false;
  CHECK(issue(p, w, 3) == std::vector<int>{0, 1, 0}); // skips 2 (stalled) and 3 (empty)
  w[0].ready = w[1].ready = false;
  CHECK(issue(p, w, 1) == std::vector<int>{-1});
}

TEST_CASE("lrr: order is by slot, not by list position", "[scheduler]") {
  LrrPolicy p;
  std::vector<WarpView> w = {
      {9, true, true, 0, {}}, {2, true, true, 1, {}}, {5, true, true, 2, {}}};
  CHECK(issue(p, w, 4) == std::vector<int>{2, 5, 9, 2});
  // A pick the SM did not issue does not move the pointer.
  CHECK(p.pick(w) == 5u);
  CHECK(p.pick(w) == 5u);
}

TEST_CASE("gto: stays on the last issued warp while it is ready", "[scheduler]") {
  GtoPolicy p;
  auto w = warps(4);
  w[0].age = 30, w[1].age = 10, w[2].age = 20, w[3].age = 40;
  CHECK(issue(p, w, 3) == std::vector<int>{1, 1, 1}); // oldest first, then greedy
  w[1].ready = false;
  CHECK(issue(p, w, 2) == std::vector<int>{2, 2}); // falls back to the oldest ready
  w[1].ready = true;
  CHECK(issue(p, w, 1) == std::vector<int>{2}); // greedy beats older
  w[2].valid = false;                           // the greedy warp exits
  CHECK(issue(p, w, 1) == std::vector<int>{1});
  for (auto& v : w)
    v.ready = false;
  CHECK(issue(p, w, 1) == std::vector<int>{-1});
}

TEST_CASE("gto: a bounded greedy run lets the oldest other warp go, then resumes", "[scheduler]") {
  GtoPolicy p(3);
  auto w = warps(3);
  w[0].age = 10, w[1].age = 20, w[2].age = 30;
  // 3 issues of the oldest, one of the next oldest, then greedy again.
  CHECK(issue(p, w, 5) == std::vector<int>{0, 0, 0, 1, 1});
  w[1].ready = false;
  w[2].ready = false;
  CHECK(issue(p, w, 4) == std::vector<int>{0, 0, 0, 0}); // alone: past its bound
}

TEST_CASE("gto: equal ages break ties by slot", "[scheduler]") {
  GtoPolicy p;
  std::vector<WarpView> w = {{7, true, true, 5, {}}, {3, true, true, 5, {}}};
  CHECK(p.pick(w) == 3u);
}

TEST_CASE("make_scheduler by name", "[scheduler]") {
  CHECK(std::string(make_scheduler("lrr")->name()) == "lrr");
  CHECK(std::string(make_scheduler("gto")->name()) == "gto");
  CHECK_THROWS_WITH(make_scheduler("gwat"), Catch::Contains("gwat") && Catch::Contains("gto, lrr"));
}
