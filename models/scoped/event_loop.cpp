#include "models/scoped/event_loop.hpp"

namespace tlmgpu::scoped {

bool EventLoop::run(uint64_t limit) {
  while (!q_.empty()) {
    Ev e = q_.top();
    if (e.t > limit) return false;
    q_.pop();
    now_ = e.t;
    e.h.resume();
  }
  return true;
}

} // namespace tlmgpu::scoped
