// The memory budget (tlmgpu/memory_budget.hpp): sizes as --max-memory takes
// them, and the one-line refusal that names the estimate and the budget.
#include "tlmgpu/memory_budget.hpp"
#include "tlmgpu/params.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using Catch::Matchers::Contains;

TEST_CASE("memory budget: sizes, the default and the refusal", "[budget]") {
  CHECK(parse_memory_size("1000", "--max-memory") == 1000);
  CHECK(parse_memory_size("64K", "--max-memory") == 64 << 10);
  CHECK(parse_memory_size("512m", "--max-memory") == 512 << 20);
  CHECK(parse_memory_size("1.5GiB", "--max-memory") == 3ull << 29);
  CHECK(parse_memory_size("2T", "--max-memory") == 2ull << 40);
  for (const char* bad : {"", "0", "-1", "12x", "G", "1e30T", "nan"})
    CHECK_THROWS_WITH(parse_memory_size(bad, "--max-memory"), Contains("--max-memory: expected"));
  CHECK(format_bytes(300) == "300 bytes");
  CHECK(format_bytes(3ull << 29) == "1.5 GiB");
  CHECK(format_bytes(UINT64_MAX) == "more than 16 EiB");
  CHECK(sat_mul(uint64_t{1} << 40, uint64_t{1} << 40) == UINT64_MAX);
  CHECK(sat_add(UINT64_MAX, 1) == UINT64_MAX);

  CHECK(default_memory_budget() > 0);
  set_memory_budget(1 << 20);
  CHECK(memory_budget() == 1 << 20);
  CHECK_NOTHROW(check_memory(1 << 20, "x"));
  CHECK_THROWS_WITH(check_memory((1 << 20) + 1, "workload w (n=5)"),
                    "workload w (n=5) would take about 1.0 MiB, more than --max-memory (1.0 MiB); "
                    "lower it or raise --max-memory");
  set_memory_budget(0); // back to the default
  CHECK(memory_budget() == default_memory_budget());
}
