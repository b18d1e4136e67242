#include "models/runtime/runtime_stats.hpp"

namespace tlmgpu::rt {

GpuRuntimeStats::GpuRuntimeStats(StatGroup& g)
    : h2d(g.counter("h2d", "transfers", "host-to-device copies (fills of misses and closures)")),
      h2d_bytes(g.counter("h2d_bytes", "bytes", "bytes copied host to device")),
      d2h(g.counter("d2h", "transfers", "device-to-host copies (write-backs, evictions, syncs)")),
      d2h_bytes(g.counter("d2h_bytes", "bytes", "bytes copied device to host")),
      p2p_in(g.counter("p2p_in", "transfers", "peer copies into this GPU (LC reduction tree)")),
      p2p_in_bytes(g.counter("p2p_in_bytes", "bytes", "bytes of peer copies into this GPU")),
      memsets(g.counter("memsets", "ops", "copies zero-filled on the GPU (no link traffic)")),
      kernels(g.counter("kernels", "kernels", "kernels run (tasks and LC merge kernels)")),
      closures(g.counter("closures", "transfers", "task closures copied host to device")),
      hits(g.counter("hits", "accesses", "a task's block already on this GPU")),
      misses(g.counter("misses", "accesses", "a task's block filled from the host")),
      reserve_failed(
          g.counter("reserve_failed", "tasks", "reservations refused (memory or slots)")),
      sweeps(g.counter("sweeps", "sweeps", "garbage-collection sweeps of this GPU")),
      freed_bytes(g.counter("freed_bytes", "bytes", "device bytes returned by freed copies")),
      evicted(g.counter("evicted", "copies", "valid copies freed by a sweep")),
      writebacks(g.counter("writebacks", "transfers", "strict write-backs at task end")),
      writeback_bytes(g.counter("writeback_bytes", "bytes", "bytes of strict write-backs")),
      eviction_merges(g.counter("eviction_merges", "transfers",
                                "LC copies written back and merged on eviction")),
      eviction_bytes(g.counter("eviction_bytes", "bytes", "bytes of LC eviction write-backs")),
      sync_bytes(g.counter("sync_bytes", "bytes", "bytes copied to the host by LC syncs")),
      tasks(g.counter("tasks", "tasks", "GPU tasks run on this GPU")) {}

RuntimeStats::RuntimeStats(StatGroup& parent, uint32_t gpus)
    : group(parent, "runtime"), gpu_tasks(group.counter("gpu_tasks", "tasks", "GPU tasks run")),
      cpu_tasks(group.counter("cpu_tasks", "tasks", "CPU tasks run")),
      steals(group.counter("steals", "tasks", "tasks a worker took from another's deque")),
      retries(group.counter("retries", "tasks", "GPU tasks put back after a refused reservation")),
      syncs(group.counter("lc_syncs", "syncs", "LC collapses of a block")),
      copies_merged(group.counter("lc_copies_merged", "copies", "GPU copies collapsed by syncs")),
      tree_steps(group.counter("lc_tree_steps", "steps", "peer copy + merge kernel steps")),
      tree_levels(group.counter("lc_tree_levels", "levels", "reduction-tree levels, summed")),
      host_merges(group.counter("lc_host_merges", "merges", "copies merged on the host by syncs")),
      eviction_merges(group.counter("lc_eviction_merges", "merges",
                                    "LC copies merged into the host on eviction")) {
  for (uint32_t g = 0; g < gpus; ++g) {
    gpu_groups.push_back(std::make_unique<StatGroup>(group, "gpu_" + std::to_string(g)));
    gpu.emplace_back(*gpu_groups.back());
  }
}

void RuntimeStats::count(const StreamOp& op) {
  GpuRuntimeStats& g = gpu[op.gpu];
  switch (op.kind) {
  case OpKind::H2D:
    ++g.h2d;
    g.h2d_bytes += op.bytes;
    if (op.cause == Cause::Closure) ++g.closures;
    return;
  case OpKind::D2H:
    ++g.d2h;
    g.d2h_bytes += op.bytes;
    if (op.cause == Cause::WriteBack) {
      ++g.writebacks;
      g.writeback_bytes += op.bytes;
    }
    if (op.cause == Cause::Evict) {
      ++g.eviction_merges;
      g.eviction_bytes += op.bytes;
    }
    if (op.cause == Cause::Sync) g.sync_bytes += op.bytes;
    return;
  case OpKind::P2P:
    ++g.p2p_in;
    g.p2p_in_bytes += op.bytes;
    return;
  case OpKind::Memset:
    ++g.memsets;
    return;
  case OpKind::Kernel:
    ++g.kernels;
    return;
  case OpKind::Callback:
    return;
  }
}

const char* to_string(OpKind k) {
  static const char* n[] = {"h2d", "d2h", "p2p", "memset", "kernel", "callback"};
  return n[int(k)];
}

const char* to_string(Cause c) {
  static const char* n[] = {"miss", "closure", "writeback", "evict",
                            "sync", "merge",   "task",      "callback"};
  return n[int(c)];
}

} // namespace tlmgpu::rt
