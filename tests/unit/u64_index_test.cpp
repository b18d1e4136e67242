// U64Index (include/tlmgpu/u64_index.hpp), the calendar's and wide caches' index,
// against std::map under random inserts and erases, with growth and
// colliding probe runs.
#include "tlmgpu/u64_index.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <random>

using namespace tlmgpu;

TEST_CASE("U64Index finds what was inserted and forgets what was erased", "[calendar]") {
  U64Index idx;
  std::map<uint64_t, uint32_t> ref;
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20000; ++round) {
    // Few distinct times (many collisions on re-insert) and clock-like values.
    const uint64_t when = (rng() % 300) * 1000;
    size_t slot;
    const uint32_t got = idx.find(when, slot);
    auto it = ref.find(when);
    REQUIRE((it == ref.end() ? U64Index::kNone : it->second) == got);
    if (it == ref.end()) {
      idx.insert(slot, when, uint32_t(round));
      ref[when] = uint32_t(round);
    } else if (rng() % 2) {
      idx.erase(when);
      ref.erase(it);
    }
    REQUIRE(idx.size() == ref.size());
  }
  for (auto& [when, bucket] : ref) {
    size_t slot;
    REQUIRE(idx.find(when, slot) == bucket);
  }
}
