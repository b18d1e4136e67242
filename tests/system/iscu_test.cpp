// The ISCU (examples/iscu/tiny-iscu.json: the SCU with scu.filter_unit = iru
// and two IRU partitions): a filtering access-expansion compaction whose
// duplicates the IRU partitions drop. Checked in all three timing modes:
// nothing is lost (every value of the expansion comes out), each element is
// either written or merged away in the IRU, the in-memory table is never
// touched, and while no hash set fills the output is exactly the unique
// values (pre-processing replies only full sets and the drain, never at the
// warp timeout).
#include "models/host/host_module.hpp"
#include "models/iru/iru_module.hpp"
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

struct Outcome {
  std::vector<uint32_t> expansion; // what the unfiltered compaction would write
  std::vector<uint32_t> out;
  nlohmann::json gpu;
};

// 200 CSR-like rows over `data` (values k * stride, k < 400), some rows
// repeated, expanded with the unique filter. stride 64: one value per IRU
// block, so no hash set fills; stride 1: 32 values share a block and its set
// fills, is replied and forgotten, and a later copy passes again.
Outcome run_iscu(TimingMode mode, uint32_t stride) {
  const PlatformSpec p = load_platform(platform_path("examples/iscu/tiny-iscu.json"));
  std::mt19937 rng(5);
  std::vector<uint32_t> data(3000), index, count;
  for (uint32_t& x : data)
    x = (rng() % 400) * stride;
  for (uint32_t r = 0; r < 200; ++r) {
    const uint32_t lo = rng() % 2900, n = rng() % 40;
    index.push_back(lo), count.push_back(n);
    if (r % 5 == 0) index.push_back(lo), count.push_back(n); // the same row twice
  }
  Outcome o;
  for (size_t r = 0; r < index.size(); ++r)
    for (uint32_t k = 0; k < count[r]; ++k)
      o.expansion.push_back(data[index[r] + k]);
  const ProgramResult res = run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuModule* scu = ScuModule::of(h.context());
    REQUIRE(scu);
    ScuCommand c = access_expansion(h, data, index, count, o.expansion.size());
    c.out = h.malloc(4 * c.out_capacity, "out");
    c.filter = ScuFilter::Unique; // no hash table: the IRU filters
    const uint64_t n = scu->execute(c, h.gpu().device_memory);
    o.out = h.download<uint32_t>(c.out, n);
  });
  o.gpu = res.stats["total"]["gpu"];
  return o;
}

double stat(const nlohmann::json& gpu, const std::string& block, const std::string& name) {
  return gpu[block][name]["value"].get<double>();
}

void filters_in_the_iru(TimingMode mode, uint32_t stride) {
  const Outcome o = run_iscu(mode, stride);
  const std::set<uint32_t> want(o.expansion.begin(), o.expansion.end());
  const std::set<uint32_t> got(o.out.begin(), o.out.end());
  REQUIRE(got == want); // no false positive: nothing the expansion holds is lost
  const double merged = stat(o.gpu, "iru_0", "merged") + stat(o.gpu, "iru_1", "merged");
  CHECK(merged > 0);
  CHECK(o.out.size() + merged == o.expansion.size()); // written or merged, once
  if (stride == 64) {
    CHECK(o.out.size() == want.size()); // every duplicate met its first copy
  } else {
    // Sets replied early let some copies pass again, but most go.
    CHECK(o.out.size() < want.size() + (o.expansion.size() - want.size()) / 2);
    CHECK(stat(o.gpu, "iru_0", "replies_full") + stat(o.gpu, "iru_1", "replies_full") > 0);
  }
  CHECK(stat(o.gpu, "scu", "iru_elements") == o.expansion.size());
  CHECK(stat(o.gpu, "scu", "filtered") == merged);
  // No in-memory table and no data back to the SCU: the IRU fetched it.
  CHECK(stat(o.gpu, "scu", "hash_reads") == 0);
  CHECK(stat(o.gpu, "scu", "hash_writes") == 0);
  CHECK(stat(o.gpu, "scu", "data_reads") == 0);
  CHECK(stat(o.gpu, "iru_0", "lines_read") + stat(o.gpu, "iru_1", "lines_read") > 0);
}

} // namespace

TEST_CASE("iscu: the IRU filters the SCU's expansion: functional", "[iscu][scu][iru]") {
  filters_in_the_iru(TimingMode::Functional, 64);
}
TEST_CASE("iscu: the IRU filters the SCU's expansion: lt", "[iscu][scu][iru]") {
  filters_in_the_iru(TimingMode::LT, 64);
}
TEST_CASE("iscu: the IRU filters the SCU's expansion: at", "[iscu][scu][iru]") {
  filters_in_the_iru(TimingMode::AT, 64);
}
TEST_CASE("iscu: full sets replied early lose nothing: lt", "[iscu][scu][iru]") {
  filters_in_the_iru(TimingMode::LT, 1);
}
TEST_CASE("iscu: full sets replied early lose nothing: at", "[iscu][scu][iru]") {
  filters_in_the_iru(TimingMode::AT, 1);
}
