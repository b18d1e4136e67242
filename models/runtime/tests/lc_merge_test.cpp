// The LC collapse: the reduction tree for every set of copies (seed-004 §7.6
// T-XFER-2) and the merge operators.
#include "models/runtime/datablock.hpp"
#include "models/runtime/lc_merge.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <set>

using namespace tlmgpu::rt;

TEST_CASE("the tree merges k copies in k-1 steps into one root, deepest level first", "[runtime]") {
  for (uint32_t mask = 1; mask < 256; ++mask) {
    const TreePlan p = plan_tree(mask);
    INFO("mask " << mask);
    REQUIRE(p.steps.size() == size_t(std::popcount(mask)) - 1);
    REQUIRE(p.roots.size() == 1);
    std::set<uint32_t> gone;
    for (const auto& [root, other] : p.steps) {
      CHECK((mask >> root & 1u));
      CHECK((mask >> other & 1u));
      CHECK(!gone.count(root)); // a GPU that sent its copy never receives again
      CHECK(!gone.count(other));
      gone.insert(other);
    }
    CHECK(!gone.count(p.roots[0]));
    // within a group every step is a pair inside it (NVLinked); the one step
    // across groups is the cross pair i <-> i+4 whenever the mask holds one
    bool crossed = false;
    for (int i = 0; i < 4; ++i)
      crossed = crossed || ((mask >> i & 1u) && (mask >> (i + 4) & 1u));
    for (const auto& [root, other] : p.steps)
      if (root / 4 != other / 4 && crossed) CHECK(other == root + 4);
  }
  // the notes' example: {1,2,3,6} -> roots 2 and 6, 2 the final root
  const TreePlan p = plan_tree(0b01001110);
  CHECK(p.roots == std::vector<uint32_t>{2});
  CHECK(p.steps.back() == std::pair<uint32_t, uint32_t>{2, 6});
  CHECK(p.depth == 3);
}

TEST_CASE("host-serial brings every copy to the host", "[runtime]") {
  const TreePlan p = plan_host_serial(0b10010110);
  CHECK(p.steps.empty());
  CHECK(p.roots == std::vector<uint32_t>{1, 2, 4, 7});
}

TEST_CASE("merge operators: min, max, add on u32, xor on u64, copy", "[runtime]") {
  auto bytes = [](std::vector<uint32_t> w) {
    std::vector<uint8_t> b(4 * w.size());
    std::memcpy(b.data(), w.data(), b.size());
    return b;
  };
  std::vector<uint8_t> h = bytes({5, 1, 7});
  merge_into(MergeOp::Min, h, bytes({3, 4, 7}));
  CHECK(h == bytes({3, 1, 7}));
  merge_into(MergeOp::Max, h, bytes({4, 0, 9}));
  CHECK(h == bytes({4, 1, 9}));
  merge_into(MergeOp::Add, h, bytes({1, 1, 1}));
  CHECK(h == bytes({5, 2, 10}));
  merge_into(MergeOp::Copy, h, bytes({0, 0, 0}));
  CHECK(h == bytes({0, 0, 0}));
  std::vector<uint8_t> x(16, 0), y(16, 0);
  const uint64_t a = 0xF0F0F0F0F0F0F0F0ull, b = 0x0FF00FF00FF00FF0ull;
  std::memcpy(x.data(), &a, 8);
  std::memcpy(y.data(), &b, 8);
  merge_into(MergeOp::Xor, x, y);
  uint64_t r;
  std::memcpy(&r, x.data(), 8);
  CHECK(r == (a ^ b));
  CHECK(zero_is_identity(MergeOp::Add));
  CHECK(!zero_is_identity(MergeOp::Min));
}
