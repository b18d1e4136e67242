// The ISCU streams (models/scu/README.md "ISCU", issue 16): the address
// generator hands the data elements to the IRU partitions as it generates
// them (`width` a cycle, a fetch request per run of words in one line), the
// SCU's pulls are outstanding from the first elements on, and the data
// store writes each reply's survivors as it comes back. One
// access-expansion of 4,000 rows (7 chunks of the 5 KB vector FIFO) whose
// 30 K elements take 4,096 values, so hash sets fill (and are replied)
// while later elements are still generated, on gtx980-iscu (4 partitions):
// the stats `iru_fetch_overlap` (first reply to last element handed over)
// and `iru_write_overlap` (first output write to last reply) must be
// positive in lt and at, with the best-cost filter too (its costs come
// with the replies). 19,097 / 18,959 cycles (lt / at; best-cost 31,784 /
// 37,409). Broken on purpose: every element handed over at once after the
// last chunk (the code before 2026-11-29) gives fetch overlap 0 in all four
// (28,197 / 28,184 and 54,709 / 53,638 cycles); the output buffered until
// the last reply gives write overlap 0 in all four.
// And an output past out_capacity, thrown where the pulls store (at: the
// filter unit's process), reaches the host program in lt and at.
#include "models/host/host_module.hpp"
#include "models/scu/scu_module.hpp"
#include "run_helpers.hpp"
#include "scu_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

void streams(TimingMode mode, ScuFilter filter) {
  const PlatformSpec p = load_platform(platform_path("examples/iscu/gtx980-iscu.json"));
  std::mt19937 rng(11);
  std::vector<uint32_t> data(20000), weight(data.size()), index, count, expansion;
  for (uint32_t i = 0; i < data.size(); ++i)
    data[i] = rng() % 4096, weight[i] = 1 + rng() % 64;
  std::map<uint32_t, uint32_t> best; // BestCost: each value's cheapest weight
  for (uint32_t r = 0; r < 4000; ++r) {
    const uint32_t lo = rng() % (data.size() - 16), n = rng() % 16;
    index.push_back(lo), count.push_back(n);
    for (uint32_t k = lo; k < lo + n; ++k) {
      expansion.push_back(data[k]);
      auto [it, fresh] = best.try_emplace(data[k], weight[k]);
      if (!fresh) it->second = std::min(it->second, weight[k]);
    }
  }
  std::vector<uint32_t> out, costs;
  const ProgramResult res = run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuModule* scu = ScuModule::of(h.context());
    REQUIRE(scu);
    ScuCommand c = access_expansion(h, data, index, count, expansion.size());
    c.out = h.malloc(4 * c.out_capacity, "out");
    c.filter = filter; // no hash table: the IRU filters
    if (filter == ScuFilter::BestCost) {
      c.cost = h.upload(weight, "weight");
      c.cost_out = h.malloc(4 * c.out_capacity, "cost_out");
    }
    const uint64_t k = scu->execute(c, h.gpu().device_memory);
    out = h.download<uint32_t>(c.out, k);
    if (filter == ScuFilter::BestCost) costs = h.download<uint32_t>(c.cost_out, k);
  });
  // Nothing lost: every value of the expansion comes out, with its cheapest
  // cost (a value may come out twice: its set was replied in between).
  const std::set<uint32_t> want(expansion.begin(), expansion.end());
  REQUIRE(std::set<uint32_t>(out.begin(), out.end()) == want);
  for (size_t i = 0; i < costs.size(); ++i)
    CHECK(costs[i] >= best.at(out[i]));
  if (!costs.empty()) {
    std::map<uint32_t, uint32_t> got;
    for (size_t i = 0; i < out.size(); ++i) {
      auto [it, fresh] = got.try_emplace(out[i], costs[i]);
      if (!fresh) it->second = std::min(it->second, costs[i]);
    }
    CHECK(got == best);
  }
  const nlohmann::json& s = res.stats["total"]["gpu"]["scu"];
  const double fetch = s["iru_fetch_overlap"]["value"].get<double>();
  const double write = s["iru_write_overlap"]["value"].get<double>();
  INFO("cycles " << s["cycles"]["value"] << ", replies " << s["iru_replies"]["value"] << ", out "
                 << out.size() << " of " << expansion.size() << ", fetch overlap " << fetch
                 << ", write overlap " << write);
  CHECK(out.size() < expansion.size() / 2); // the hash merged most copies
  CHECK(fetch > 0);                         // replies taken while chunks were still handed over
  CHECK(write > 0);                         // output written while replies were still coming
}

} // namespace

TEST_CASE("iscu streams: pulls overlap the fetch, writes overlap the pulls: lt",
          "[iscu][scu][iru]") {
  streams(TimingMode::LT, ScuFilter::Unique);
}
TEST_CASE("iscu streams: pulls overlap the fetch, writes overlap the pulls: at",
          "[iscu][scu][iru]") {
  streams(TimingMode::AT, ScuFilter::Unique);
}
TEST_CASE("iscu streams with the best-cost filter: lt", "[iscu][scu][iru]") {
  streams(TimingMode::LT, ScuFilter::BestCost);
}
TEST_CASE("iscu streams with the best-cost filter: at", "[iscu][scu][iru]") {
  streams(TimingMode::AT, ScuFilter::BestCost);
}

namespace {

// The pulls run as the filter unit's job (at: its own process) and store
// as replies come: an output past out_capacity must still reach the host
// program from execute(), with the generator's elements all handed over.
void overflow_reaches_host(TimingMode mode) {
  const PlatformSpec p = load_platform(platform_path("examples/iscu/gtx980-iscu.json"));
  std::vector<uint32_t> data(8192), index, count;
  for (uint32_t i = 0; i < data.size(); ++i)
    data[i] = i; // every value unique: nothing is merged
  for (uint32_t r = 0; r < 512; ++r)
    index.push_back(16 * r), count.push_back(16);
  capacity_error_reaches_host(p, mode, [&](HostModule& h) {
    ScuCommand c = access_expansion(h, data, index, count, data.size() / 2); // half the room
    c.out = h.malloc(4 * c.out_capacity, "out");
    c.filter = ScuFilter::Unique;
    return c;
  });
}

} // namespace

TEST_CASE("iscu streams: an output past out_capacity reaches the host: lt", "[iscu][scu][iru]") {
  overflow_reaches_host(TimingMode::LT);
}
TEST_CASE("iscu streams: an output past out_capacity reaches the host: at", "[iscu][scu][iru]") {
  overflow_reaches_host(TimingMode::AT);
}
