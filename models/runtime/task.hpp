// Tasks (ARTS EDTs, seed-004 §3.1, §4.1) and the stream operations a GPU
// task becomes (§4.3). A task names its DataBlocks with an access mode and
// the tasks it waits for; it becomes ready when those have finished.
#pragma once

#include "models/runtime/datablock.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {
// A task's real kernel, for a node whose GPUs are the full GPU model
// (models/node/node_gpu_module.hpp); the runtime only carries it.
struct NodeKernel;
} // namespace tlmgpu

namespace tlmgpu::rt {

// Input of the kernel-time model: bytes moved through device memory, flops,
// threads per block (STREAM's 1-thread blocks are far from peak).
struct KernelCost {
  uint64_t bytes = 0, flops = 0;
  uint32_t block = 32;
};

// A task's blocks as it sees them: the GPU copies (GPU task) or the host
// copies (CPU task), in dependency order; empty vectors for timing-only blocks.
using Views = std::vector<std::vector<uint8_t>*>;
using Body = std::function<void(Views&)>;

struct Dep {
  Guid db = 0;
  Mode mode = Mode::Normal;
};

struct TaskSpec {
  std::string name;
  bool gpu = true;
  int gpu_to_run_on = -1; // a Direct task (-1: the locality policy chooses)
  std::vector<Dep> deps;
  std::vector<TaskId> after; // control dependencies
  uint32_t paramc = 0;
  KernelCost cost;   // GPU task
  double cpu_us = 0; // CPU task: its own time on the worker
  Body body;
  // GPU task: the kernel a full GPU model runs on the blocks' bytes in its
  // memory instead of `body` (null: the program has none).
  std::shared_ptr<const NodeKernel> kernel = nullptr;
};

enum class OpKind { H2D, D2H, P2P, Memset, Kernel, Callback };
// Why bytes move (statistics by cause, seed-004 §7.3).
enum class Cause { Miss, Closure, WriteBack, Evict, Sync, Merge, Task, Callback };
const char* to_string(OpKind k);
const char* to_string(Cause c);

// One wave of a kernel on managed memory (models/uvm): the stall for its
// fault batches, the copies that write pages back (D2H: evicted, or pinned
// pages leaving a GPU for host memory) and migrate its pages in (H2D from
// the host, P2P from the GPU that held them), then its work (and that of
// the fault-free waves after it) while its accesses to pages pinned
// elsewhere cross the fabric (`remote`, all sources at once).
struct Wave {
  struct Copy {
    OpKind kind;
    uint32_t peer = 0, memory = 0; // P2P: the source GPU; D2H: the GPU the pages leave
    uint64_t bytes = 0;
    int to = -1; // P2P: the GPU it goes to, when not the wave's own
  };
  KernelCost work;
  double stall_s = 0;
  std::vector<Copy> copies;
  std::vector<Copy> remote; // H2D: pages pinned in host memory; P2P: on GPU `peer`
};
// Called when a wave starts, at simulated time `now_s`; false when the
// kernel has no wave left.
using WaveSource = std::function<bool(Wave&, double now_s)>;

// One operation on a GPU's in-order stream. The executor times it (fabric,
// kernel-time model) and runs `effect`, the functional part, when it ends.
struct StreamOp {
  OpKind kind = OpKind::Callback;
  Cause cause = Cause::Task;
  uint32_t gpu = 0;    // the stream
  uint32_t peer = 0;   // P2P: the GPU the copy comes from
  uint32_t memory = 0; // H2D / D2H: the host memory of the block
  uint64_t bytes = 0;
  KernelCost cost; // Kernel
  std::function<void()> effect;
  double not_before_s = 0; // the host has issued it by then (set by the executor)
  // A kernel on managed memory: its launch, then wave after wave (`cost`
  // unused). Last, so the positional initialisers above stay valid.
  WaveSource waves = nullptr;
  // A task's kernel (OpKind::Kernel): its real kernel and its blocks' copies
  // (dependency order). An executor with full GPU models runs `kernel` on
  // the bytes of `views()` in the GPU's memory, and not `effect`.
  std::shared_ptr<const NodeKernel> kernel = nullptr;
  std::function<Views()> views = nullptr;
  // Several streams per GPU (runtime.streams): the stream of its GPU it
  // goes on (a task's operations share one; the runtime's own use 0).
  uint32_t stream = 0;
  // A hit on a copy whose fill is still queued on another stream of the
  // GPU (a CUDA event wait): the operation starts only once this holds.
  std::function<bool()> ready = nullptr;
  // Starts only after every operation queued before it on any stream of its
  // GPU has ended (LC sync steps: the copies they read or merge are final).
  bool join = false;
};

} // namespace tlmgpu::rt
