// The ARTS-like task runtime of a multi-GPU node (seed-004 §3-4), without
// SystemC: DataBlocks, tasks and their dependencies, the workers' deques,
// GPU choice with memory reservation, the per-GPU copy directories, garbage
// collection and the LC collapse. It decides *what* moves; the executor
// (models/node) decides *when*, running the StreamOps it hands out on each
// GPU's stream and the fabric, and calling back as they end. README.md.
#pragma once

#include "models/runtime/gpu_directory.hpp"
#include "models/runtime/lc_merge.hpp"
#include "models/runtime/runtime_spec.hpp"
#include "models/runtime/runtime_stats.hpp"
#include "models/runtime/task.hpp"

#include <deque>
#include <memory>
#include <optional>
#include <random>

namespace tlmgpu::rt {

class Runtime {
public:
  Runtime(const RuntimeSpec& spec, uint32_t gpus, uint64_t capacity_bytes, uint32_t memories,
          uint32_t workers, uint64_t seed, StatGroup& stats);

  // ---- the program's side (a workload's driver and task bodies)
  // `key` places the block (hash locality); its host buffer lives in host
  // memory key % memories.
  Guid create_db(uint64_t bytes, DbType type, MergeOp op, uint64_t key, bool functional);
  DataBlock& db(Guid id);
  // Ready tasks go to `worker`'s deque (the one that created them).
  TaskId add_task(TaskSpec t, uint32_t worker = 0);
  bool finished(TaskId id) const { return tasks_.at(id).finished; }
  uint32_t gpus() const { return gpus_; }
  const RuntimeSpec& spec() const { return spec_; }
  // The parameters that set a GPU's capacity, for the message of a task
  // that never fits (the executor's GPU model decides them).
  std::string capacity_params = "gpu_time.capacity_mib, runtime.max_memory_mib";

  // ---- the workers' side (§4.2)
  std::optional<TaskId> next_gpu_task(uint32_t worker);
  std::optional<TaskId> next_cpu_task(uint32_t worker);
  void retry_later(uint32_t worker, TaskId id); // a failed reservation: back to the front
  // Reserves memory and a task slot on a GPU; -1 if none fits (an on-demand
  // sweep of the GPU that refused is then requested).
  int find_gpu(TaskId id);
  // The stream operations of a GPU task on `gpu` (§4.3): fills of misses,
  // the closure, the kernel, write-backs, and the wrap-up callback, whose
  // effect finishes the task with its successors on `worker`'s deque.
  std::vector<StreamOp> launch(TaskId id, uint32_t gpu, uint32_t worker);
  // CPU tasks: the blocks to collapse first (LcSync deps), then run.
  std::vector<Guid> lc_syncs(TaskId id) const;
  void run_cpu(TaskId id, uint32_t worker);
  const TaskSpec& task(TaskId id) const { return tasks_.at(id).spec; }

  // ---- garbage collection (§4.6)
  // The GPU an on-demand sweep should visit (and clears the request), or -1.
  int take_gc_request();
  void sweep(uint32_t gpu); // frees unused copies; LC ones queue an eviction merge
  // Eviction merges queued by sweeps and discards: a D2H of the copy whose
  // effect merges it into the host copy and gives the memory back.
  std::vector<StreamOp> take_evictions();

  // ---- the LC collapse (§4.9): plan, then one op per step and per root
  TreePlan sync_begin(Guid db); // pins every valid copy; the plan over them
  StreamOp sync_copy(Guid db, uint32_t root, uint32_t other); // P2P into the root's shadow
  StreamOp sync_merge(Guid db, uint32_t root);                // merge kernel on the root
  StreamOp sync_to_host(Guid db, uint32_t root);              // D2H + host merge, copy freed

  uint64_t available(uint32_t gpu) const { return avail_[gpu]; }
  const GpuDirectory& directory(uint32_t gpu) const { return *dirs_[gpu]; }
  RuntimeStats& stats() { return stats_; }
  // A task that can never run (it needs more than a GPU's whole budget): the
  // executor stops and the run reports this as a configuration error.
  const std::string& impossible() const { return impossible_; }
  // True when a finished task or freed memory may let a waiting worker on.
  bool take_progress() { return std::exchange(progress_, false); }

private:
  struct Task {
    TaskSpec spec;
    uint32_t waiting = 0;
    std::vector<TaskId> successors;
    bool finished = false, gpu_launched = false;
    uint64_t reserved = 0, closure = 0;
    std::vector<CopyEntry*> pinned; // on its GPU, from launch to wrap-up
  };
  void ready(TaskId id, uint32_t worker);
  void finish(TaskId id, uint32_t worker);
  void wrap_up(TaskId id, uint32_t gpu, uint32_t worker);
  uint64_t need(const Task& t) const;
  bool try_reserve(uint32_t gpu, uint64_t bytes);
  int locality_choice(const Task& t);
  void on_free(uint32_t gpu, std::unique_ptr<CopyEntry> e);
  std::optional<TaskId> pop(std::vector<std::deque<TaskId>>& deques, uint32_t worker);
  CopyEntry& copy_on(uint32_t gpu, Guid db);

  RuntimeSpec spec_;
  uint32_t gpus_, memories_;
  uint64_t capacity_;
  std::mt19937_64 rng_;
  std::deque<DataBlock> dbs_; // stable: stream effects hold references
  std::vector<Task> tasks_;
  std::vector<std::deque<TaskId>> gpu_deques_, cpu_deques_;
  std::vector<std::unique_ptr<GpuDirectory>> dirs_;
  std::vector<uint64_t> avail_;
  std::vector<uint32_t> running_;
  std::vector<uint64_t> next_stream_; // per GPU: the stream of its next task
  std::vector<StreamOp> evictions_;
  uint64_t stamp_ = 0, round_robin_ = 0;
  int gc_request_ = -1;
  bool progress_ = false;
  std::string impossible_;
  RuntimeStats stats_;
};

} // namespace tlmgpu::rt
