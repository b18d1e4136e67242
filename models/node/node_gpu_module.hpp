// A GPU of the node as the full GPU model (gpu_model.kind = full, issue 17
// item 1): its own GpuModule (device memory, SMs, L1/L2/DRAM) and a host
// interface to it (HostModule), driven from the GPU's stream engine. A
// task's kernel gets its blocks' bytes uploaded into device memory, runs as
// a real kernel through the GPU's ordinary launch/synchronize, and its
// blocks come back from device memory; the stream takes the time the kernel
// took. The GPU model knows nothing of the node: uploads and downloads are
// the host's untimed copies (the fabric has already timed the task's H2D
// and D2H operations).
#pragma once

#include "models/gpu/gpu_module.hpp"
#include "models/host/host_module.hpp"
#include "models/runtime/task.hpp"
#include "tlmgpu/sim/context.hpp"

#include <map>
#include <vector>

namespace tlmgpu {

// A task's real kernel: its launch on the device addresses of its blocks
// (dependency order), each allocated with its block's size.
struct NodeKernel {
  std::function<KernelLaunch(const std::vector<Addr>& blocks)> launch;
};

class NodeGpuModule : public sc_core::sc_module {
public:
  // GPU `index` of the node, platform `p`; its stats go under `parent` as
  // device_<index> (its blocks are named <this>.gpu.*).
  NodeGpuModule(sc_core::sc_module_name n, RunContext& run, const PlatformSpec& p, uint32_t index,
                StatGroup& parent);
  // From the stream engine's thread: upload, launch, synchronize, download.
  void run(const NodeKernel& k, rt::Views& blocks);

private:
  Addr take(uint64_t bytes); // a buffer of exactly `bytes`, reused across kernels
  StatGroup stats_;
  SimContext ctx_;

public:
  GpuModule gpu;

private:
  HostModule host_;
  std::map<uint64_t, std::vector<Addr>> free_; // buffers by size
  Counter &kernels_, &upload_bytes_, &download_bytes_;
};

} // namespace tlmgpu
