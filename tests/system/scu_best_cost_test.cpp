// The SCU's unique-best-cost filter (SSSP, seed-003 §2.5) in generate mode
// and its filter vector applied by later operations (§2.2 "two-step use"),
// on tiny-scu in all three timing modes: the table of (ID, best cost) lives
// in device memory and is reached through L2, so this checks the module's
// memory path against the filter's rule, not the probe function alone.
#include "models/host/host_module.hpp"
#include "models/scu/scu_module.hpp"
#include "run_helpers.hpp"
#include "scu_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

struct Outcome {
  std::vector<uint32_t> ids, costs; // the unfiltered expansion and its costs
  std::vector<uint32_t> flags, kept, kept_w, again;
  nlohmann::json scu;
};

// 300 CSR-like rows over 4000 arcs (IDs < 500, weights 1..64), each row
// with a source cost; with `repeat`, every 7th row twice (a costlier copy).
struct Input {
  std::vector<uint32_t> ids, weights, index, count, add;
  std::vector<uint32_t> exp_ids, exp_costs; // the unfiltered expansion and its costs

  explicit Input(bool repeat) : ids(4000), weights(4000) {
    std::mt19937 rng(11);
    for (size_t k = 0; k < ids.size(); ++k)
      ids[k] = rng() % 500, weights[k] = 1 + rng() % 64;
    for (uint32_t r = 0; r < 300; ++r) {
      const uint32_t lo = rng() % 3950, n = rng() % 40, d = rng() % 200;
      index.push_back(lo), count.push_back(n), add.push_back(d);
      if (repeat && r % 7 == 0) index.push_back(lo), count.push_back(n), add.push_back(d + 3);
    }
    for (size_t r = 0; r < index.size(); ++r)
      for (uint32_t k = 0; k < count[r]; ++k)
        exp_ids.push_back(ids[index[r] + k]), exp_costs.push_back(weights[index[r] + k] + add[r]);
  }
  // The expansion with the best-cost filter's inputs (no table, no output).
  ScuCommand upload(HostModule& h) const {
    ScuCommand c = access_expansion(h, ids, index, count, exp_ids.size(), "ids");
    c.filter = ScuFilter::BestCost;
    c.cost = h.upload(weights, "weights");
    c.cost_add = h.upload(add, "source_cost");
    return c;
  }
};

// `sets`: the table's sets of 16 ways (large: no set fills; 2: sets fill
// and evict).
Outcome run_best_cost(TimingMode mode, uint32_t sets) {
  const PlatformSpec p = load_platform(platform_path("examples/scu/tiny-scu.json"));
  const Input in(true);
  Outcome o;
  o.ids = in.exp_ids, o.costs = in.exp_costs;
  const ProgramResult res = run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuModule* scu = ScuModule::of(h.context());
    REQUIRE(scu);
    const DeviceMemory& mem = h.gpu().device_memory;
    ScuCommand f = in.upload(h);
    ScuCommand c = f; // the plain expansion that applies the vector
    c.filter = ScuFilter::None, c.cost = c.cost_add = 0;
    f.hash.sets = sets, f.hash.entry_bytes = 8;
    f.hash.base = h.malloc(f.hash.bytes(), "hash");
    h.memset(f.hash.base, 0xff, f.hash.bytes());
    f.generate = true;
    f.out = h.malloc(4 * o.ids.size(), "flags");
    REQUIRE(scu->execute(f, mem) == o.ids.size()); // one flag per element
    o.flags = h.download<uint32_t>(f.out, o.ids.size());
    c.apply = f.out;
    c.out = h.malloc(4 * o.ids.size(), "out");
    o.kept = h.download<uint32_t>(c.out, scu->execute(c, mem));
    c.data = f.cost; // the same filter over a second array
    o.kept_w = h.download<uint32_t>(c.out, scu->execute(c, mem));
    // The table persists: the same expansion again passes only what an
    // eviction forgot.
    o.again = h.download<uint32_t>(f.out, scu->execute(f, mem));
  });
  o.scu = res.stats["total"]["gpu"]["scu"];
  return o;
}

double stat(const nlohmann::json& scu, const std::string& name) {
  return scu[name]["value"].get<double>();
}

void filters_best_cost(TimingMode mode, uint32_t sets) {
  const Outcome o = run_best_cost(mode, sets);
  REQUIRE(o.flags.size() == o.ids.size());
  std::map<uint32_t, uint32_t> kept_best, seen_best;
  std::vector<uint32_t> want_ids;
  uint64_t dropped = 0;
  for (size_t k = 0; k < o.ids.size(); ++k) {
    const uint32_t id = o.ids[k], cost = o.costs[k];
    const bool improves = !seen_best.count(id) || cost < seen_best[id];
    if (!o.flags[k]) {
      ++dropped;
      // No false positive: dropped only after the same ID at a cost at most
      // its own passed.
      REQUIRE(kept_best.count(id));
      REQUIRE(kept_best[id] <= cost);
    } else {
      want_ids.push_back(id);
      if (!kept_best.count(id) || cost < kept_best[id]) kept_best[id] = cost;
    }
    // Room for every ID: exactly the strict improvements pass.
    if (sets >= 64) REQUIRE(bool(o.flags[k]) == improves);
    if (improves) seen_best[id] = cost;
  }
  CHECK(dropped > (sets >= 64 ? 1000u : 100u)); // a 2-set table forgets most IDs
  REQUIRE(o.kept == want_ids);                  // applied: the flagged elements, in order
  REQUIRE(o.kept_w.size() == want_ids.size());
  CHECK(stat(o.scu, "filtered") >= double(dropped));
  CHECK(stat(o.scu, "hash_reads") > 0);
  CHECK(stat(o.scu, "hash_writes") > 0);
  uint64_t again = 0;
  for (uint32_t f : o.again)
    again += f;
  if (sets >= 64)
    CHECK(again == 0);
  else
    CHECK(again > 0); // evicted IDs pass again (false negatives)
}

} // namespace

TEST_CASE("scu best-cost filter, generate and apply: functional", "[scu]") {
  filters_best_cost(TimingMode::Functional, 128);
}
TEST_CASE("scu best-cost filter, generate and apply: lt", "[scu]") {
  filters_best_cost(TimingMode::LT, 128);
}
TEST_CASE("scu best-cost filter, generate and apply: at", "[scu]") {
  filters_best_cost(TimingMode::AT, 128);
}
TEST_CASE("scu best-cost filter with evictions loses no improvement: at", "[scu]") {
  filters_best_cost(TimingMode::AT, 2);
}

namespace {

// The ISCU (tiny-iscu, scu.filter_unit = iru): the same expansion with the
// best-cost filter in the IRU partitions, inline, writing (ID, cost) pairs.
void iscu_keeps_the_cheapest(TimingMode mode) {
  const PlatformSpec p = load_platform(platform_path("examples/iscu/tiny-iscu.json"));
  const Input in(false);
  std::map<uint32_t, uint32_t> best; // ID -> cheapest cost in the expansion
  std::multimap<uint32_t, uint32_t> pairs;
  const uint64_t n = in.exp_ids.size();
  for (size_t k = 0; k < n; ++k) {
    const uint32_t id = in.exp_ids[k], c = in.exp_costs[k];
    pairs.emplace(id, c);
    if (!best.count(id) || c < best[id]) best[id] = c;
  }
  std::vector<uint32_t> out, cost;
  const ProgramResult res = run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuCommand c = in.upload(h); // no table: the IRU filters
    c.out = h.malloc(4 * n, "out");
    c.cost_out = h.malloc(4 * n, "cost_out");
    const uint64_t k = ScuModule::of(h.context())->execute(c, h.gpu().device_memory);
    out = h.download<uint32_t>(c.out, k);
    cost = h.download<uint32_t>(c.cost_out, k);
  });
  const nlohmann::json& gpu = res.stats["total"]["gpu"];
  std::map<uint32_t, uint32_t> got; // ID -> cheapest cost written
  for (size_t i = 0; i < out.size(); ++i) {
    // Each pair is a real copy of the expansion.
    auto [lo, hi] = pairs.equal_range(out[i]);
    REQUIRE(std::any_of(lo, hi, [&](const auto& e) { return e.second == cost[i]; }));
    if (!got.count(out[i]) || cost[i] < got[out[i]]) got[out[i]] = cost[i];
  }
  REQUIRE(got == best); // every ID, each with its cheapest cost: nothing lost
  const double merged = stat(gpu["iru_0"], "merged") + stat(gpu["iru_1"], "merged");
  CHECK(merged > 1000);
  CHECK(out.size() + merged == n);
  CHECK(stat(gpu["scu"], "hash_reads") == 0);
  CHECK(stat(gpu["scu"], "filtered") == merged);
}

} // namespace

TEST_CASE("iscu best-cost filter keeps each ID's cheapest copy: functional", "[iscu][scu]") {
  iscu_keeps_the_cheapest(TimingMode::Functional);
}
TEST_CASE("iscu best-cost filter keeps each ID's cheapest copy: lt", "[iscu][scu]") {
  iscu_keeps_the_cheapest(TimingMode::LT);
}
TEST_CASE("iscu best-cost filter keeps each ID's cheapest copy: at", "[iscu][scu]") {
  iscu_keeps_the_cheapest(TimingMode::AT);
}
