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
// 4.9.
#include "models/host/host_module.hpp"
#include "models/scu/scu_module.hpp"
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

// With `apply`, a filter vector drops every fifth masked element as well.
nlohmann::json compact(TimingMode mode, const char* platform, bool apply = false) {
  const PlatformSpec p = load_platform(platform_path(platform));
  const uint32_t n = 1u << 16;
  std::vector<uint32_t> data(n), mask(n), flags;
  std::iota(data.begin(), data.end(), 7u);
  for (uint32_t i = 0; i < n; ++i)
    if ((mask[i] = i % 3 != 0)) flags.push_back(flags.size() % 5 != 0);
  const ProgramResult res = run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuModule* scu = ScuModule::of(h.context());
    REQUIRE(scu);
    ScuCommand c;
    c.op = ScuOp::Data;
    c.n = n;
    c.data = h.upload(data, "data");
    c.mask = h.upload(mask, "mask");
    c.out_capacity = n;
    c.out = h.malloc(4 * n, "out");
    if (apply) c.apply = h.upload(flags, "flags");
    const uint64_t k = scu->execute(c, h.gpu().device_memory);
    std::vector<uint32_t> want;
    for (uint32_t i = 0, pos = 0; i < n; ++i)
      if (mask[i] && (!apply || flags[pos++])) want.push_back(data[i]);
    REQUIRE(h.download<uint32_t>(c.out, k) == want);
  });
  return res.stats["total"]["gpu"]["scu"];
}

void keeps_entries_busy(TimingMode mode, const char* platform, bool apply = false,
                        double least = 31) {
  const nlohmann::json s = compact(mode, platform, apply);
  const double in_flight = s["reads_in_flight"]["value"].get<double>();
  INFO("cycles " << s["cycles"]["value"] << " reads in flight " << in_flight << ", round trip "
                 << s["read_latency"]["value"]);
  CHECK(in_flight >= least);
  CHECK(in_flight <= 32); // never more than the coalescer's entries
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
  keeps_entries_busy(TimingMode::LT, "examples/scu/gtx980-scu.json", true);
}
TEST_CASE("scu pipeline streams a filter vector's flags: gtx980 at", "[scu]") {
  keeps_entries_busy(TimingMode::AT, "examples/scu/gtx980-scu.json", true);
}
