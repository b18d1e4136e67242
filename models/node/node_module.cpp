#include "models/node/node_module.hpp"

using namespace sc_core;

namespace tlmgpu {

NodeModule::NodeModule(sc_module_name n, const NodeRuntimeSpec& spec,
                       const std::vector<PlatformSpec>& gpus, RunContext& run, bool whole_transfers)
    : sc_module(n), stats_(run.stats, "node") {
  const bool full = spec.gpu_model.kind == "full";
  const uint64_t capacity = (full ? spec.gpu_model.memory_mib : spec.gpu_time.capacity_mib) << 20;
  const uint32_t count = uint32_t(gpus.size());
  rt_ = std::make_unique<rt::Runtime>(spec.runtime, count, capacity,
                                      uint32_t(spec.fabric.host_memory.size()), spec.host.workers,
                                      run.seed, stats_);
  if (full) rt_->capacity_params = "gpu_model.memory_mib, runtime.max_memory_mib";
  uvm_ = std::make_unique<uvm::ManagedMemory>(spec.uvm, rt_->gpus(), capacity, stats_);
  fabric_ = std::make_unique<FabricModule>("fabric", spec.fabric, count, whole_transfers, stats_);
  // thrashing mitigation pins a page on a GPU only if its users are NVLink peers of it
  std::vector<std::vector<bool>> nvlink(count, std::vector<bool>(count, false));
  for (uint32_t a = 0; a < count; ++a)
    for (uint32_t b = 0; b < count; ++b)
      nvlink[a][b] = !fabric_->core().peer_path(a, b).empty();
  uvm_->set_nvlink(std::move(nvlink));
  std::vector<StreamEngineModule*> used;
  for (uint32_t g = 0; g < rt_->gpus(); ++g) {
    streams_.push_back(std::make_unique<StreamEngineModule>(("gpu_" + std::to_string(g)).c_str(), g,
                                                            spec.gpu_time, spec.host.callback_us,
                                                            spec.runtime.streams, stats_));
    streams_.back()->fabric.bind(fabric_->in);
    if (full) {
      devices_.push_back(std::make_unique<NodeGpuModule>(("device_" + std::to_string(g)).c_str(),
                                                         run, gpus[g], g, stats_));
      streams_.back()->attach_gpu(*devices_.back());
    }
    used.push_back(streams_.back().get());
  }
  host_ = std::make_unique<NodeHostModule>("host", *rt_, *uvm_, spec.host, used, stats_);
}

void NodeModule::attach_trace(TraceWriter& t, const std::string& name) {
  t.process(0, name);
  for (auto& s : streams_)
    s->attach_trace(t, 0);
  host_->attach_trace(t, 0);
}

} // namespace tlmgpu
