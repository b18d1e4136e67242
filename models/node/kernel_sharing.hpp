// Concurrent kernels on the kernel-time model (gpu_time.concurrent_kernels):
// processor sharing of one GPU. A kernel alone needs `work_s` seconds and
// occupies a share `use` of the GPU (its eff(block) / eff_full for a
// memory-bound kernel: STREAM's one-thread blocks use a few percent). While
// the shares of the running kernels sum to at most 1 each runs at its own
// speed, as CUDA runs small kernels of different streams side by side; past
// 1 every kernel slows by the same factor, so the GPU's work is conserved
// (two full-GPU kernels together take as long as one after the other).
//
// Core without SystemC: the stream engine calls it at each start and end and
// re-arms each kernel's end at finish_s().
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>

namespace tlmgpu {

class KernelSharing {
public:
  // A kernel starts at `now_s`; returns its id.
  uint64_t add(double now_s, double work_s, double use) {
    advance(now_s);
    const uint64_t id = next_++;
    running_[id] = Kernel{work_s, use};
    use_ += use;
    return id;
  }
  void remove(double now_s, uint64_t id) {
    advance(now_s);
    use_ -= running_.at(id).use;
    running_.erase(id);
    if (running_.empty()) use_ = 0; // no drift from the sums
  }
  // Brings every kernel's remaining work to `now_s` at the current speed.
  void advance(double now_s) {
    const double dt = now_s - since_s_;
    if (dt < 0) throw std::logic_error("KernelSharing: time went back");
    for (auto& [id, k] : running_)
      k.left_s = k.left_s > dt * speed() ? k.left_s - dt * speed() : 0;
    since_s_ = now_s;
  }
  // When kernel `id` ends if nothing starts or ends before.
  double finish_s(uint64_t id) const { return since_s_ + running_.at(id).left_s / speed(); }
  double left_s(uint64_t id) const { return running_.at(id).left_s; }
  // The fraction of its own speed every running kernel gets.
  double speed() const { return use_ > 1 ? 1 / use_ : 1; }
  size_t running() const { return running_.size(); }
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [id, k] : running_)
      f(id);
  }

private:
  struct Kernel {
    double left_s, use;
  };
  std::map<uint64_t, Kernel> running_; // ordered: re-arming in start order is deterministic
  double use_ = 0, since_s_ = 0;
  uint64_t next_ = 0;
};

} // namespace tlmgpu
