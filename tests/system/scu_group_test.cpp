// The SCU's grouping (seed-003 §2.6) through the module on tiny-scu in all
// three timing modes: the grouping table lives in device memory and is
// reached through L2, so this checks the memory path (set lines read,
// changed, written back, flushed) against the grouping rule, and the gather
// list applied to two arrays, and with a filter vector (notes P12).
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

struct Grouped {
  std::vector<uint32_t> plain, order, heads, weights, table;
  std::vector<uint32_t> flags, filtered; // a filter vector applied with the list
  std::vector<uint32_t> w_in;            // the weights, by plain position
  uint32_t line = 0;
  nlohmann::json scu;
};

// 300 CSR-like rows over 4000 arcs with heads < 1000 (a 4000-byte target:
// 32 lines of 128 bytes); `sets` sets of 4 ways of 32 bytes.
Grouped run_group(TimingMode mode, uint32_t sets) {
  const PlatformSpec p = load_platform(platform_path("examples/scu/tiny-scu.json"));
  std::mt19937 rng(5);
  std::vector<uint32_t> ids(4000), weights(4000), index, count;
  for (size_t k = 0; k < ids.size(); ++k)
    ids[k] = rng() % 1000, weights[k] = uint32_t(k);
  for (uint32_t r = 0; r < 300; ++r)
    index.push_back(rng() % 3950), count.push_back(rng() % 40);
  Grouped o;
  for (size_t r = 0; r < index.size(); ++r)
    for (uint32_t k = 0; k < count[r]; ++k)
      o.plain.push_back(ids[index[r] + k]), o.w_in.push_back(weights[index[r] + k]);
  const ProgramResult res = run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuModule* scu = ScuModule::of(h.context());
    REQUIRE(scu);
    const DeviceMemory& mem = h.gpu().device_memory;
    o.line = h.context().net.line_bytes;
    ScuCommand c = access_expansion(h, ids, index, count, o.plain.size(), "ids");
    ScuCommand g = c;
    g.group = g.generate = true;
    g.group_target = h.malloc(4000, "target");
    g.hash.sets = sets, g.hash.ways = o.line / 32, g.hash.entry_bytes = 32;
    g.hash.base = h.malloc(g.hash.bytes(), "group_hash");
    h.memset(g.hash.base, 0xff, g.hash.bytes());
    g.out = h.malloc(4 * o.plain.size(), "order");
    REQUIRE(scu->execute(g, mem) == o.plain.size());
    o.order = h.download<uint32_t>(g.out, o.plain.size());
    o.table = h.download<uint32_t>(g.hash.base, g.hash.bytes() / 4);
    c.order = g.out;
    c.out = h.malloc(4 * o.plain.size(), "out");
    o.heads = h.download<uint32_t>(c.out, scu->execute(c, mem));
    const Addr ids_at = c.data;
    c.data = h.upload(weights, "weights"); // the same order over a second array
    o.weights = h.download<uint32_t>(c.out, scu->execute(c, mem));
    // With a filter vector too (notes P12): the flag of plain position
    // order[k] decides, and the output stays dense.
    o.flags.resize(o.plain.size());
    for (size_t k = 0; k < o.flags.size(); ++k)
      o.flags[k] = k % 3 != 0;
    c.data = ids_at;
    c.apply = h.upload(o.flags, "flags");
    o.filtered = h.download<uint32_t>(c.out, scu->execute(c, mem));
    c.apply = 0;
    // A gather list must be a permutation: a doubled position is refused.
    if (o.plain.size() > 1) {
      std::vector<uint32_t> bad = o.order;
      bad[1] = bad[0];
      c.order = h.upload(bad, "bad_order");
      REQUIRE_THROWS_AS(scu->execute(c, mem), ConfigError);
    }
  });
  o.scu = res.stats["total"]["gpu"]["scu"];
  return o;
}

void groups(TimingMode mode, uint32_t sets) {
  const Grouped o = run_group(mode, sets);
  // A permutation of the plain output, applied alike to both arrays.
  std::vector<uint32_t> sorted = o.order;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t k = 0; k < sorted.size(); ++k)
    REQUIRE(sorted[k] == k);
  REQUIRE(o.heads.size() == o.plain.size());
  REQUIRE(o.weights.size() == o.plain.size());
  for (size_t k = 0; k < o.order.size(); ++k) {
    REQUIRE(o.heads[k] == o.plain[o.order[k]]);
    REQUIRE(o.weights[k] == o.w_in[o.order[k]]);
  }
  std::vector<uint32_t> kept;
  for (uint32_t p : o.order)
    if (o.flags[p]) kept.push_back(o.plain[p]);
  REQUIRE(o.filtered == kept);
  // The table is left empty.
  REQUIRE(std::all_of(o.table.begin(), o.table.end(), [](uint32_t x) { return x == ~0u; }));
  // Runs of one target line: with room for every line (no evictions), a
  // line's elements leave in groups of 7 and one remainder at most.
  auto block = [&](uint32_t head) { return uint64_t(head) * 4 / o.line; };
  std::map<uint64_t, uint32_t> per_line;
  for (uint32_t x : o.plain)
    ++per_line[block(x)];
  uint32_t runs = o.heads.empty() ? 0 : 1, bound = 0, plain_runs = o.plain.empty() ? 0 : 1;
  for (size_t k = 1; k < o.heads.size(); ++k) {
    runs += block(o.heads[k]) != block(o.heads[k - 1]);
    plain_runs += block(o.plain[k]) != block(o.plain[k - 1]);
  }
  for (auto [b, n] : per_line)
    bound += (n + 6) / 7;
  if (sets >= 64) REQUIRE(runs <= bound);
  if (sets >= 64) CHECK(runs < plain_runs / 2); // a 1-set table evicts almost every group
  CHECK(o.scu["hash_reads"]["value"].get<double>() > 0);
  CHECK(o.scu["hash_writes"]["value"].get<double>() > 0);
}

} // namespace

TEST_CASE("scu grouping: generate and apply a gather list: functional", "[scu]") {
  groups(TimingMode::Functional, 64);
}
TEST_CASE("scu grouping: generate and apply a gather list: lt", "[scu]") {
  groups(TimingMode::LT, 64);
}
TEST_CASE("scu grouping: generate and apply a gather list: at", "[scu]") {
  groups(TimingMode::AT, 64);
}
TEST_CASE("scu grouping with evictions keeps every element: at", "[scu]") {
  groups(TimingMode::AT, 1);
}
