#include "models/runtime/stream_buffer.hpp"

#include <stdexcept>

namespace tlmgpu::rt {
namespace {
size_t array_of(OpKind k) {
  switch (k) {
  case OpKind::H2D:
  case OpKind::Memset:
    return 0;
  case OpKind::Kernel:
    return 1;
  case OpKind::D2H:
    return 2;
  case OpKind::Callback:
    return 3;
  case OpKind::P2P:
    break;
  }
  throw std::logic_error("stream buffer: a peer copy is never buffered");
}
} // namespace

StreamBuffer::Gpu::Gpu(StatGroup& g)
    : ops(g.counter("ops", "ops", "operations that went through the buffer")),
      full(g.counter("flushes_full", "flushes", "flushes because an array was full")),
      idle(g.counter("flushes_idle", "flushes", "flushes at the checkStreams count")),
      sync(g.counter("flushes_sync", "flushes",
                     "flushes before a wait for the GPU (LC sync, eviction, synchronize) or a "
                     "peer copy")) {}

StreamBuffer::StreamBuffer(uint32_t gpus, uint32_t entries, uint32_t idle_checks, StatGroup& parent)
    : entries_(entries), idle_checks_(idle_checks), stats_(parent, "stream_buffer"),
      checks_(stats_.counter("idle_checks", "calls", "checkStreams calls (idle loop iterations)")) {
  gpus_.reserve(gpus);
  for (uint32_t g = 0; g < gpus; ++g) {
    groups_.push_back(std::make_unique<StatGroup>(stats_, "gpu_" + std::to_string(g)));
    gpus_.emplace_back(*groups_.back());
  }
}

bool StreamBuffer::add(uint32_t gpu, std::vector<StreamOp> ops) {
  Gpu& g = gpus_.at(gpu);
  g.ops += ops.size();
  for (StreamOp& op : ops)
    g.arrays[array_of(op.kind)].push_back(std::move(op));
  for (const auto& a : g.arrays)
    if (a.size() >= entries_) return true;
  return false;
}

bool StreamBuffer::check() {
  ++checks_;
  if (++calls_ < idle_checks_) return false;
  calls_ = 0;
  return true;
}

std::vector<StreamOp> StreamBuffer::flush(uint32_t gpu, Flush why) {
  Gpu& g = gpus_.at(gpu);
  std::vector<StreamOp> out;
  for (auto& a : g.arrays) {
    for (StreamOp& op : a)
      out.push_back(std::move(op));
    a.clear();
  }
  if (out.empty()) return out;
  ++(why == Flush::Full ? g.full : why == Flush::Idle ? g.idle : g.sync);
  return out;
}

bool StreamBuffer::empty(uint32_t gpu) const {
  for (const auto& a : gpus_.at(gpu).arrays)
    if (!a.empty()) return false;
  return true;
}

bool StreamBuffer::any() const {
  for (uint32_t g = 0; g < gpus_.size(); ++g)
    if (!empty(g)) return true;
  return false;
}

} // namespace tlmgpu::rt
