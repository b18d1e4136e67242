// The SCU's units overlap (models/scu/README.md "Timing: a pipeline"): the
// address generator reads the next chunk's vectors among this chunk's data
// reads, starts a slice's data reads as soon as the slice's vector line is
// in (element-granular streaming, so the reads go on across chunk
// boundaries), and the data store's writes are posted from a process of
// their own. One long data compaction (a 5 KB vector FIFO, so 1,280
// elements a chunk) must keep the coalescer's 32 entries full in lt and at:
// 31.7 / 31.7 reads in flight on GTX 980, 31.8 / 31.8 on TX1. Broken on
// purpose: a chunk's data reads waiting for all of its vector lines (the
// code before 2026-11-29) gives 27.7 / 27.5 and 29.5 / 29.8; in at,
// waiting for the next chunk's vectors before the data store runs gave 23.6
// (GTX 980), writes that wait for their answers 26.2 (GTX 980), the store's
// write pacing (width 1) holding up the fetch 25.0 (TX1). With a filter
// vector (apply) its flags stream with the vectors: 31.5 / 31.4 on GTX 980;
// reading them per chunk after the chunk's vectors (before 2026-11-29) gave
// 28.1 / 26.2, applying each slice's flags as soon as they are requested
// 4.9. With the unique filter (about as many hash set reads as data reads
// a chunk) the filter unit works on a chunk while the next chunk's data
// are fetched: 39.5 / 37.2 reads in flight (both coalescers) on GTX 980,
// 35.7 / 34.8 on TX1; the address generator waiting in at while the filter
// read its hash sets (the code before 2026-11-29, issue 16) gives 29.8 and
// 30.2 in at (72,006 and 163,559 cycles against 60,412 and 143,223).
#include "models/host/host_module.hpp"
#include "models/scu/scu_module.hpp"
#include "run_helpers.hpp"
#include "scu_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

enum class Extra { None, Apply, Unique };

// With Extra::Apply, a filter vector drops every fifth masked element as
// well; with Extra::Unique the data are runs of 32 equal values (one a
// data line) and the unique filter keeps the first of each, so every chunk
// has about as many hash set reads as data reads.
// A data compaction of `data` under `mask` into a new output of
// `out_capacity` words.
ScuCommand data_command(HostModule& h, const std::vector<uint32_t>& data,
                        const std::vector<uint32_t>& mask, uint64_t out_capacity) {
  ScuCommand c;
  c.op = ScuOp::Data;
  c.n = data.size();
  c.data = h.upload(data, "data");
  c.mask = h.upload(mask, "mask");
  c.out_capacity = out_capacity;
  c.out = h.malloc(4 * out_capacity, "out");
  return c;
}

// A unique filter with an empty 4096-set hash table in device memory.
void add_unique_filter(HostModule& h, ScuCommand& c) {
  c.filter = ScuFilter::Unique;
  c.hash.sets = 4096;
  c.hash.base = h.malloc(c.hash.bytes(), "hash");
  h.memset(c.hash.base, 0xff, c.hash.bytes());
}

nlohmann::json compact(TimingMode mode, const char* platform, Extra extra = Extra::None) {
  const PlatformSpec p = load_platform(platform_path(platform));
  const uint32_t n = 1u << 16;
  const bool apply = extra == Extra::Apply, unique = extra == Extra::Unique;
  std::vector<uint32_t> data(n), mask(n), flags;
  std::iota(data.begin(), data.end(), 7u);
  if (unique)
    for (uint32_t i = 0; i < n; ++i)
      data[i] = i / 32;
  for (uint32_t i = 0; i < n; ++i)
    if ((mask[i] = i % 3 != 0)) flags.push_back(flags.size() % 5 != 0);
  const ProgramResult res = run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuModule* scu = ScuModule::of(h.context());
    REQUIRE(scu);
    ScuCommand c = data_command(h, data, mask, n);
    if (apply) c.apply = h.upload(flags, "flags");
    if (unique) add_unique_filter(h, c); // room for every value: nothing is evicted
    const uint64_t k = scu->execute(c, h.gpu().device_memory);
    std::vector<uint32_t> want;
    for (uint32_t i = 0, pos = 0; i < n; ++i)
      if (mask[i] && (!apply || flags[pos++]) &&
          (!unique || want.empty() || want.back() != data[i]))
        want.push_back(data[i]);
    REQUIRE(h.download<uint32_t>(c.out, k) == want);
  });
  return res.stats["total"]["gpu"]["scu"];
}

void keeps_entries_busy(TimingMode mode, const char* platform, Extra extra = Extra::None,
                        double least = 31) {
  const nlohmann::json s = compact(mode, platform, extra);
  const double in_flight = s["reads_in_flight"]["value"].get<double>();
  INFO("cycles " << s["cycles"]["value"] << " reads in flight " << in_flight << ", round trip "
                 << s["read_latency"]["value"] << ", hash reads " << s["hash_reads"]["value"]);
  CHECK(in_flight >= least);
  // Never more than the coalescers' entries (the filter unit has its own).
  CHECK(in_flight <= (extra == Extra::Unique ? 64 : 32));
}

} // namespace

TEST_CASE("scu pipeline keeps the coalescer's entries busy: gtx980 lt", "[scu]") {
  keeps_entries_busy(TimingMode::LT, "examples/scu/gtx980-scu.json");
}
TEST_CASE("scu pipeline keeps the coalescer's entries busy: gtx980 at", "[scu]") {
  keeps_entries_busy(TimingMode::AT, "examples/scu/gtx980-scu.json");
}
TEST_CASE("scu pipeline keeps the coalescer's entries busy: tx1 lt", "[scu]") {
  keeps_entries_busy(TimingMode::LT, "examples/scu/tx1-scu.json");
}
TEST_CASE("scu pipeline keeps the coalescer's entries busy: tx1 at", "[scu]") {
  keeps_entries_busy(TimingMode::AT, "examples/scu/tx1-scu.json");
}
TEST_CASE("scu pipeline streams a filter vector's flags: gtx980 lt", "[scu]") {
  keeps_entries_busy(TimingMode::LT, "examples/scu/gtx980-scu.json", Extra::Apply);
}
TEST_CASE("scu pipeline streams a filter vector's flags: gtx980 at", "[scu]") {
  keeps_entries_busy(TimingMode::AT, "examples/scu/gtx980-scu.json", Extra::Apply);
}
TEST_CASE("scu pipeline overlaps the filter unit with the fetch: gtx980 lt", "[scu]") {
  keeps_entries_busy(TimingMode::LT, "examples/scu/gtx980-scu.json", Extra::Unique, 33);
}
TEST_CASE("scu pipeline overlaps the filter unit with the fetch: gtx980 at", "[scu]") {
  keeps_entries_busy(TimingMode::AT, "examples/scu/gtx980-scu.json", Extra::Unique, 33);
}
TEST_CASE("scu pipeline overlaps the filter unit with the fetch: tx1 lt", "[scu]") {
  keeps_entries_busy(TimingMode::LT, "examples/scu/tx1-scu.json", Extra::Unique, 33);
}
TEST_CASE("scu pipeline overlaps the filter unit with the fetch: tx1 at", "[scu]") {
  keeps_entries_busy(TimingMode::AT, "examples/scu/tx1-scu.json", Extra::Unique, 33);
}

namespace {

// The filter unit's job runs in a process of its own in at: an error there
// (the filtered output overflowing out_capacity) must still reach the host
// program from execute(), as in lt.
void filter_error_reaches_host(TimingMode mode) {
  const PlatformSpec p = load_platform(platform_path("examples/scu/gtx980-scu.json"));
  const uint32_t n = 1u << 14;
  std::vector<uint32_t> data(n), mask(n, 1);
  std::iota(data.begin(), data.end(), 0u);
  capacity_error_reaches_host(p, mode, [&](HostModule& h) {
    ScuCommand c = data_command(h, data, mask, n / 2); // every value is unique: twice too many
    add_unique_filter(h, c);
    return c;
  });
}

} // namespace

TEST_CASE("scu filter unit's error reaches the host: lt", "[scu]") {
  filter_error_reaches_host(TimingMode::LT);
}
TEST_CASE("scu filter unit's error reaches the host: at", "[scu]") {
  filter_error_reaches_host(TimingMode::AT);
}
