// The jitter streams (include/tlmgpu/jitter.hpp) and the output hash
// (include/tlmgpu/hash.hpp): reproducible, independent per identity, bounded.
#include "tlmgpu/hash.hpp"
#include "tlmgpu/jitter.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

using namespace tlmgpu;

namespace {
std::vector<uint64_t> draws(JitterStream s, int n, uint64_t max) {
  std::vector<uint64_t> v;
  for (int i = 0; i < n; ++i)
    v.push_back(s.delay(max));
  return v;
}
} // namespace

TEST_CASE("jitter: a stream is a function of the seed and its identity", "[jitter]") {
  const auto a = draws(JitterStream(7, "gpu.dram_0/latency"), 64, 16);
  CHECK(a == draws(JitterStream(7, "gpu.dram_0/latency"), 64, 16));
  CHECK(a != draws(JitterStream(8, "gpu.dram_0/latency"), 64, 16)); // another seed
  CHECK(a != draws(JitterStream(7, "gpu.dram_1/latency"), 64, 16)); // another block
  CHECK(a != draws(JitterStream(7, "gpu.dram_0/ties"), 64, 16));    // another source
}

TEST_CASE("jitter: delays stay in [0, max] and reach both ends", "[jitter]") {
  JitterStream s(1, "x");
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t d = s.delay(5);
    CHECK(d <= 5);
    seen.insert(d);
  }
  CHECK(seen.size() == 6);
  for (int i = 0; i < 100; ++i)
    CHECK(s.below(1) == 0);
}

TEST_CASE("jitter: off or zero draws nothing", "[jitter]") {
  JitterStream off;
  CHECK_FALSE(off.on());
  CHECK(off.delay(100) == 0);
  // A zero maximum must not advance the stream: a source switched to 0 leaves
  // the numbers of the draws that follow unchanged.
  JitterStream a(3, "s"), b(3, "s");
  a.delay(0);
  CHECK(a.delay(1000) == b.delay(1000));
}

TEST_CASE("jitter: spec switches every source off unless enabled", "[jitter]") {
  JitterSpec j = defaults<JitterSpec>();
  CHECK_FALSE(j.enable);
  CHECK(j.dram() == 0);
  CHECK(j.xbar() == 0);
  CHECK_FALSE(j.tie_breaks());
  CHECK_FALSE(j.cta_dispatch());
  j.enable = true;
  CHECK(j.dram() == j.dram_cycles);
  CHECK(j.dram() > 0);
  CHECK(j.xbar() > 0);
  CHECK(j.tie_breaks());
  CHECK(j.cta_dispatch());
}

TEST_CASE("output hash: FNV-1a 64 with a length before each buffer", "[hash]") {
  // Reference values of FNV-1a 64 (the authors' test vectors).
  CHECK(fnv1a64("", 0) == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a", 1) == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a64("foobar", 6) == 0x85944171f73967e8ull);
  CHECK(hash_hex(0xaf63dc4c8601ec8cull) == "af63dc4c8601ec8c");
  CHECK(hash_hex(1) == "0000000000000001");

  OutputHash none;
  CHECK(none.value() == kFnvOffset);
  OutputHash one, two;
  one.add("abcd", 4);
  two.add("ab", 2);
  two.add("cd", 2);
  CHECK(one.value() != two.value()); // the same bytes, split differently
  CHECK(one.buffers() == 1);
  CHECK(two.buffers() == 2);
  OutputHash again;
  again.add("abcd", 4);
  CHECK(again.value() == one.value());
  OutputHash flipped;
  flipped.add("abce", 4);
  CHECK(flipped.value() != one.value());
}
