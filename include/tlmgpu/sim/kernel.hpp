// What the host hands the GPU to launch: geometry, resources and a body that
// creates one warp's coroutine (arguments are captured by value).
#pragma once

#include "tlmgpu/simt/warp.hpp"

#include <functional>
#include <string>

namespace tlmgpu {

struct KernelLaunch {
  std::string name;
  Dim3 grid, block;
  uint32_t shared_bytes = 0; // static + dynamic shared memory per CTA
  uint32_t regs_per_thread = 32;
  std::function<WarpTask(Warp&)> body;
};

} // namespace tlmgpu
