#include "models/node/node_gpu_module.hpp"

namespace tlmgpu {

NodeGpuModule::NodeGpuModule(sc_core::sc_module_name n, RunContext& run, const PlatformSpec& p,
                             uint32_t index, StatGroup& parent)
    : sc_module(n), stats_(parent, "device_" + std::to_string(index)), ctx_(run, p, index, stats_),
      gpu("gpu", ctx_), host_("host", ctx_, gpu),
      kernels_(stats_.counter("task_kernels", "kernels", "task kernels run on this GPU model")),
      upload_bytes_(stats_.counter("upload_bytes", "bytes",
                                   "block bytes put into device memory before a kernel")),
      download_bytes_(stats_.counter("download_bytes", "bytes",
                                     "block bytes taken from device memory after a kernel")) {}

Addr NodeGpuModule::take(uint64_t bytes) {
  std::vector<Addr>& list = free_[bytes];
  if (list.empty()) return host_.malloc(bytes, "block");
  const Addr a = list.back();
  list.pop_back();
  return a;
}

void NodeGpuModule::run(const NodeKernel& k, rt::Views& blocks) {
  std::vector<Addr> addrs;
  for (std::vector<uint8_t>* b : blocks) {
    if (b->empty())
      throw SimError(std::string(name()) + ": a task's block has no bytes (timing-only data; the "
                                           "full GPU model needs the program's real data)");
    addrs.push_back(take(b->size()));
    host_.copy_to_device(addrs.back(), b->data(), b->size());
    upload_bytes_ += b->size();
  }
  host_.launch(k.launch(addrs));
  host_.synchronize();
  ++kernels_;
  for (size_t i = 0; i < blocks.size(); ++i) {
    std::vector<uint8_t>& b = *blocks[i];
    host_.copy_from_device(b.data(), addrs[i], b.size());
    download_bytes_ += b.size();
    free_[b.size()].push_back(addrs[i]);
  }
}

} // namespace tlmgpu
