// An L2 slice indexes its sets by the line's number inside the slice
// (CacheArray::index_by_partition): a slice then holds as many lines of its
// own as it has ways x sets. Indexed by address, the bits that choose the
// slice also chose the set, and with the xor hash and a power-of-two slice
// count half of every slice's sets were never used.
#include "tlmgpu/address_map.hpp"
#include "tlmgpu/cache_array.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <vector>

using namespace tlmgpu;

namespace {

struct Geometry {
  const char* name;
  uint32_t channels, subs, line, sets, ways;
  const char* hash;
};

// The first `n` lines from address 0 that the map sends to `slice`: the
// slice's line numbers 0 .. n-1, whole blocks of the set index's fold.
std::vector<Addr> lines_of_slice(const AddressMap& map, uint32_t slice, uint32_t line, size_t n) {
  std::vector<Addr> out;
  for (Addr a = 0; out.size() < n; a += line)
    if (map.slice_of(a) == slice) out.push_back(a);
  return out;
}

// The platforms' address map: 256-byte chunks, the xor hash (or `hash`).
AddressMap chunk_map(uint32_t channels, uint32_t subs, const char* hash = "xor") {
  AddressMapSpec spec;
  spec.interleave_bytes = 256;
  spec.hash = hash;
  return AddressMap(spec, channels, subs, 16, 2048);
}

} // namespace

TEST_CASE("L2 sets: a slice holds ways x sets lines of its own", "[cache_array][l2_sets]") {
  const Geometry g = GENERATE(
      Geometry{"apu64", 8, 2, 64, 32, 16, "xor"}, Geometry{"gtx980", 4, 2, 128, 256, 8, "xor"},
      Geometry{"tx1", 2, 2, 128, 64, 8, "xor"}, Geometry{"titanv", 24, 2, 128, 32, 24, "xor"},
      Geometry{"no hash", 8, 2, 128, 64, 4, "none"});
  INFO(g.name);
  const AddressMap map = chunk_map(g.channels, g.subs, g.hash);
  const uint32_t slices = g.channels * g.subs;
  for (uint32_t slice : {0u, 1u, slices - 1}) {
    INFO("slice " << slice);
    CacheArray c(g.sets, g.ways, g.line, 32);
    c.index_by_partition(256, slices);
    std::map<uint32_t, uint32_t> per_set;
    bool evicted_any = false;
    for (Addr l : lines_of_slice(map, slice, g.line, size_t{g.sets} * g.ways)) {
      ++per_set[c.set_of(l)];
      bool ev = false;
      c.allocate(l, nullptr, &ev);
      evicted_any = evicted_any || ev;
    }
    CHECK(per_set.size() == g.sets);
    CHECK_FALSE(evicted_any);
    CHECK(c.valid_lines() == size_t{g.sets} * g.ways);
  }
}

TEST_CASE("L2 sets: by address, the xor hash leaves half the sets unused",
          "[cache_array][l2_sets]") {
  // What the partition index fixes: apu64's geometry without it.
  const AddressMap map = chunk_map(8, 2);
  CacheArray c(32, 16, 64, 32);
  std::map<uint32_t, uint32_t> per_set;
  for (Addr l : lines_of_slice(map, 0, 64, 32 * 16))
    ++per_set[c.set_of(l)];
  CHECK(per_set.size() == 16);
}

TEST_CASE("L2 sets: regions a power-of-two stride apart spread over the sets",
          "[cache_array][l2_sets]") {
  // random-traffic's layout on titanv: 80 regions of 16 KB, 1 MiB apart. The
  // slice-local line number alone (48 slices) puts a region's lines on the
  // sets of every third region, 27 lines on a 24-way set; folded, at most 10.
  const AddressMap map = chunk_map(24, 2);
  std::vector<CacheArray> slices;
  for (int i = 0; i < 48; ++i) {
    slices.emplace_back(32, 24, 128, 32);
    slices.back().index_by_partition(256, 48);
  }
  bool evicted_any = false;
  for (Addr g = 0; g < 80; ++g)
    for (Addr o = 0; o < 16384; o += 128) {
      const Addr a = 0x10000000 + (g << 20) + o;
      bool ev = false;
      slices[map.slice_of(a)].allocate(a, nullptr, &ev);
      evicted_any = evicted_any || ev;
    }
  CHECK_FALSE(evicted_any);
}

TEST_CASE("L2 sets: the chunk's number inside the partition, also by multiply",
          "[cache_array][l2_sets]") {
  std::mt19937_64 rng(7);
  for (uint32_t parts : {2u, 3u, 24u, 40u, 48u, 64u}) {
    INFO(parts << " partitions");
    CacheArray c(1024, 1, 64, 32);
    c.index_by_partition(256, parts);
    for (int i = 0; i < 2000; ++i) {
      const Addr line = (rng() >> 14) & ~Addr{63}; // below 2^50
      const Addr chunk = line >> 8;
      Addr local = (chunk / parts) << 2 | (line >> 6 & 3), want = 0;
      for (; local; local >>= 10) // the XOR fold of 10-bit digits (1024 sets)
        want ^= local & 1023;
      REQUIRE(c.set_of(line) == want);
    }
  }
}

TEST_CASE("L2 sets: a bad partition chunk is refused", "[cache_array][l2_sets]") {
  CacheArray c(8, 2, 128, 32);
  CHECK_THROWS_AS(c.index_by_partition(64, 4), std::invalid_argument);
  CHECK_THROWS_AS(c.index_by_partition(384, 4), std::invalid_argument);
  bool ev = false;
  c.allocate(0, nullptr, &ev);
  CHECK_THROWS_AS(c.index_by_partition(256, 4), std::logic_error);
}
