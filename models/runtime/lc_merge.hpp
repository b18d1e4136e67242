// The LC collapse (seed-004 §4.9): which copies meet where. The tree follows
// the reference code's DGX-1 shape: GPUs in groups of four (fully NVLinked
// inside), groups joined by the i <-> i+4 cross links; a pair's non-root
// sends its copy to the root, which merges it with a kernel. Host-serial
// brings every copy to the host instead.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace tlmgpu::rt {

struct TreePlan {
  // (root, other) in execution order, deepest level first: `other` sends its
  // copy to `root`, which merges it into its own.
  std::vector<std::pair<uint32_t, uint32_t>> steps;
  std::vector<uint32_t> roots; // copies left to bring to the host (one, or two uncrossed groups)
  uint32_t depth = 0;          // levels with at least one step
};

// findRoots + the pair rule of §4.9, for masks over GPUs 0..7.
TreePlan plan_tree(uint32_t mask);
// Host-serial: no steps, every copy a root, in GPU order.
TreePlan plan_host_serial(uint32_t mask);

} // namespace tlmgpu::rt
