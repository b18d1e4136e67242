// The runtime's statistics (seed-004 §7.3): per GPU, transfers by direction
// and cause, cache hits and misses, memory and GC; for the node, tasks,
// steals, syncs and merges. Link statistics are the fabric's.
#pragma once

#include "models/runtime/task.hpp"
#include "tlmgpu/stats.hpp"

#include <memory>
#include <vector>

namespace tlmgpu::rt {

struct GpuRuntimeStats {
  explicit GpuRuntimeStats(StatGroup& g);
  Counter &h2d, &h2d_bytes, &d2h, &d2h_bytes, &p2p_in, &p2p_in_bytes, &memsets, &kernels, &closures,
      &hits, &misses, &reserve_failed, &sweeps, &freed_bytes, &evicted, &writebacks,
      &writeback_bytes, &eviction_merges, &eviction_bytes, &sync_bytes, &tasks;
};

struct RuntimeStats {
  RuntimeStats(StatGroup& parent, uint32_t gpus);
  // Counts an operation as it is handed to a stream.
  void count(const StreamOp& op);
  StatGroup group;
  Counter &gpu_tasks, &cpu_tasks, &steals, &retries, &syncs, &copies_merged, &tree_steps,
      &tree_levels, &host_merges, &eviction_merges;
  std::vector<std::unique_ptr<StatGroup>> gpu_groups;
  std::vector<GpuRuntimeStats> gpu;
};

} // namespace tlmgpu::rt
