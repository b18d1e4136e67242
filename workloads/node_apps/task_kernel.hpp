// A node app's real kernel (TaskSpec::kernel, gpu_model.kind = full): one
// launch of `threads` threads in 32-thread blocks running `body` on the
// device addresses of the task's blocks (dependency order). Shared by the
// apps whose kernels are grid-stride loops (gups, bfs, lc-semantics).
#pragma once

#include "models/node/node_gpu_module.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {

template <class Body>
std::shared_ptr<const NodeKernel> task_kernel(std::string name, uint64_t threads, Body body) {
  auto k = std::make_shared<NodeKernel>();
  k->launch = [name, threads, body](const std::vector<Addr>& b) {
    KernelLaunch l;
    l.name = name;
    l.grid = {uint32_t(std::min<uint64_t>((std::max<uint64_t>(threads, 1) + 31) / 32, 65535)), 1,
              1};
    l.block = {32, 1, 1};
    l.body = [body, b](Warp& w) { return body(w, b); };
    return l;
  };
  return k;
}

} // namespace tlmgpu
