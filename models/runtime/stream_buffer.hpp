// Stream buffering (ARTS gpuBuffOn, seed-004 §4.8; off by default, pitfall
// 13): a GPU task's operations wait in four arrays per GPU (H2D and
// memsets, kernels, D2H, callbacks) instead of going onto the streams; a
// flush hands them out regrouped across tasks, all of the first array, then
// the second, the third and the fourth. The executor flushes a GPU when an
// array is full (add), every `idle_checks` checkStreams calls (check), and
// before it waits for the GPU or copies between GPUs (a sync).
#pragma once

#include "models/runtime/task.hpp"
#include "tlmgpu/stats.hpp"

#include <array>
#include <memory>
#include <vector>

namespace tlmgpu::rt {

class StreamBuffer {
public:
  enum class Flush { Full, Idle, Sync };
  StreamBuffer(uint32_t gpus, uint32_t entries, uint32_t idle_checks, StatGroup& parent);
  // Holds a task's operations (none of them a P2P); true when one of the
  // GPU's arrays has reached `entries` (flush it now).
  bool add(uint32_t gpu, std::vector<StreamOp> ops);
  // One checkStreams call; true on every `idle_checks`-th (flush every GPU).
  bool check();
  // The GPU's operations in issue order, the arrays emptied; counted by cause.
  std::vector<StreamOp> flush(uint32_t gpu, Flush why);
  bool empty(uint32_t gpu) const;
  bool any() const;

private:
  struct Gpu {
    explicit Gpu(StatGroup& g);
    std::array<std::vector<StreamOp>, 4> arrays;
    Counter &ops, &full, &idle, &sync;
  };
  uint32_t entries_, idle_checks_, calls_ = 0;
  StatGroup stats_;
  Counter& checks_;
  std::vector<std::unique_ptr<StatGroup>> groups_;
  std::vector<Gpu> gpus_;
};

} // namespace tlmgpu::rt
