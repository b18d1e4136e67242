// Parameters of a multi-GPU node's host, runtime and GPU time model
// (seed-004 §5.2 [E], §5.3 [C], §7.1 [R]); read from a node file's "host",
// "runtime" and "gpu_time" sections (include/tlmgpu/node.hpp). Values the
// paper does not give are the notes' recommended defaults, marked [R]/[E].
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct NodeHostSpec {
  uint32_t workers = 0;
  double api_us = 0, malloc_us = 0, free_us = 0, callback_us = 0, sync_us = 0, edt_us = 0,
         merge_gbps = 0, idle_loop_us = 0;

  template <class V>
  void visit(V& v) {
    v.param(workers, "workers", 16, Range{1, 1024}, "threads",
            "runtime worker threads (the paper's 16 host threads)");
    v.param(api_us, "api_us", 5, Range{0, 1e6}, "us",
            "[E] host time per asynchronous CUDA call (copy, memset, kernel launch)");
    v.param(malloc_us, "malloc_us", 50, Range{0, 1e6}, "us", "[E] cudaMalloc of a DB copy (miss)");
    v.param(free_us, "free_us", 20, Range{0, 1e6}, "us", "[E] cudaFree of an evicted copy");
    v.param(callback_us, "callback_us", 10, Range{0, 1e6}, "us",
            "[E] host callback dispatch after a task's stream work (wrap-up)");
    v.param(sync_us, "sync_us", 10, Range{0, 1e6}, "us",
            "[E] stream-synchronize round trip when a worker waits for a stream");
    v.param(edt_us, "edt_us", 2, Range{0, 1e6}, "us",
            "[R] scheduling cost per task on the worker that runs or launches it");
    v.param(merge_gbps, "merge_gbps", 10, Range{1e-3, 1e6}, "GB/s",
            "[R] host merge rate of an LC copy into the host copy (serial, on the worker)");
    v.param(idle_loop_us, "idle_loop_us", 0.5, Range{1e-3, 1e6}, "us",
            "[E] one idle iteration of a worker's loop (checkStreams) while stream operations "
            "are buffered (runtime.stream_buffering); idle workers otherwise sleep");
  }
  void derive() {}
};

// The calibrated kernel-time model of one GPU (seed-004 §7.1): a kernel takes
// launch + max(bytes / (hbm * eff(block)), flops / peak).
struct GpuTimeSpec {
  double hbm_gbps = 0, peak_gflops = 0, launch_us = 0, eff_full = 0, eff_thread = 0;
  uint64_t capacity_mib = 0;
  uint32_t copy_engines = 0, concurrent_kernels = 0;

  template <class V>
  void visit(V& v) {
    v.param(hbm_gbps, "hbm_gbps", 850, Range{1e-3, 1e6}, "GB/s", "[E] HBM2 effective bandwidth");
    v.param(peak_gflops, "peak_gflops", 7000, Range{1e-3, 1e7}, "GFLOP/s",
            "[E] FP64 peak (V100 7.8 TFLOP/s)");
    v.param(launch_us, "launch_us", 5, Range{0, 1e6}, "us", "[E] kernel launch on the GPU");
    v.param(eff_full, "eff_full", 0.9, Range{1e-6, 1}, "",
            "[R] fraction of hbm_gbps a kernel with blocks of 32 or more threads reaches");
    v.param(eff_thread, "eff_thread", 0.02, Range{1e-6, 1}, "",
            "[R] the fraction per thread of a smaller block (pitfall 15: ARTS STREAM runs 1-thread "
            "blocks, far from peak): eff(b) = min(eff_full, b * eff_thread)");
    v.param(capacity_mib, "capacity_mib", 16384, Range{1, 1u << 24}, "MiB",
            "[E] device memory (16 GiB V100; 32 GiB variants existed)");
    v.param(copy_engines, "copy_engines", 2, Range{1, 64}, "",
            "[E] copies of one GPU (H2D, D2H, P2P into it) that run at once when it has "
            "several streams (runtime.streams); both GPU models");
    v.param(concurrent_kernels, "concurrent_kernels", 1, Range{1, 128}, "",
            "[E] kernel-time kernels and memsets of one GPU that run at once when it has "
            "several streams (V100: up to 128); they share the GPU by occupancy "
            "(models/node/kernel_sharing.hpp). Full-model and managed-memory kernels run alone");
  }
  void derive() {}
};

struct RuntimeSpec {
  uint32_t gpus = 0, max_edts = 0, streams = 0, buffer_entries = 0, buffer_idle_checks = 0;
  uint64_t max_memory_mib = 0;
  std::string locality, fit, gc, lc_sync;
  bool cache = true, delete_zeros = true, faithful_bugs = false, stream_buffering = false;

  template <class V>
  void visit(V& v) {
    v.param(gpus, "gpus", 0, Range{0, 64}, "",
            "GPUs the runtime uses, the first N of the node (0 = all; ARTS `gpu`)");
    v.choice(locality, "locality", "hash_db0",
             {"random", "all_or_nothing", "at_least_one", "hash_db0", "hash_largest"},
             "GPU choice (ARTS gpuLocality 0-4): hash_db0 = the GPU key(first DB) mod G");
    v.choice(fit, "fit", "first", {"first", "best", "worst", "round_robin"},
             "GPU choice among those that fit (ARTS gpuFit 0-3)");
    v.choice(gc, "gc", "on_demand", {"on_demand", "idle", "pre_edt"},
             "when unused copies are swept: after a failed reservation (scheduler 5), on idle "
             "(scheduler 3) or before every GPU task");
    v.param(cache, "cache", true, Range{}, "",
            "keep DB copies on a GPU after a task (false = freeDbAfterGpuRun, 'without cache')");
    v.param(delete_zeros, "delete_zeros", true, Range{}, "",
            "a sweep also evicts unused valid copies (deleteZerosGpuGc)");
    v.choice(lc_sync, "lc_sync", "tree", {"tree", "host_serial"},
             "how an LC sync collapses the copies: a reduction tree over NVLink, or every copy "
             "to the host");
    v.param(max_memory_mib, "max_memory_mib", 0, Range{0, 1u << 24}, "MiB",
            "cap on the DB cache of each GPU (0 = gpu_time.capacity_mib; gpuMaxMemory)");
    v.param(max_edts, "max_edts", 0, Range{0, 1u << 20}, "tasks",
            "cap on tasks in flight per GPU (0 = unlimited; gpuMaxEdts)");
    v.param(faithful_bugs, "faithful_bugs", false, Range{}, "",
            "reproduce the reference code's locality bugs (all_or_nothing and at_least_one "
            "behave as random; pitfall 12)");
    v.param(streams, "streams", 1, Range{1, 64}, "",
            "streams per GPU (pitfall 11: one in the reference); GPU tasks take them round "
            "robin per GPU, the runtime's own operations (syncs, evictions) stream 0");
    v.param(stream_buffering, "stream_buffering", false, Range{}, "",
            "buffer each GPU's operations and issue them regrouped, all H2D/memsets, then "
            "kernels, then D2H, then callbacks (ARTS gpuBuffOn, seed-004 4.8; pitfall 13)");
    v.param(buffer_entries, "buffer_entries", 128, Range{1, 1u << 20}, "ops",
            "stream_buffering: a GPU is flushed when one of its four arrays holds this many");
    v.param(buffer_idle_checks, "buffer_idle_checks", 4096, Range{1, 1u << 30}, "calls",
            "stream_buffering: every GPU is flushed at this many checkStreams calls (worker "
            "loop iterations that launched no GPU task, node-wide)");
  }
  void derive() {}
};

} // namespace tlmgpu
