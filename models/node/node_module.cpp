#include "models/node/node_module.hpp"

using namespace sc_core;

namespace tlmgpu {

NodeModule::NodeModule(sc_module_name n, const NodeRuntimeSpec& spec, uint32_t gpus, uint64_t seed,
                       bool whole_transfers, StatGroup& parent)
    : sc_module(n), stats_(parent, "node") {
  const uint64_t capacity = spec.gpu_time.capacity_mib << 20;
  rt_ = std::make_unique<rt::Runtime>(spec.runtime, gpus, capacity,
                                      uint32_t(spec.fabric.host_memory.size()), spec.host.workers,
                                      seed, stats_);
  uvm_ = std::make_unique<uvm::ManagedMemory>(spec.uvm, rt_->gpus(), capacity, stats_);
  fabric_ = std::make_unique<FabricModule>("fabric", spec.fabric, gpus, whole_transfers, stats_);
  std::vector<StreamEngineModule*> used;
  for (uint32_t g = 0; g < rt_->gpus(); ++g) {
    streams_.push_back(std::make_unique<StreamEngineModule>(
        ("gpu_" + std::to_string(g)).c_str(), g, spec.gpu_time, spec.host.callback_us, stats_));
    streams_.back()->fabric.bind(fabric_->in);
    used.push_back(streams_.back().get());
  }
  host_ = std::make_unique<NodeHostModule>("host", *rt_, *uvm_, spec.host, used, stats_);
}

void NodeModule::attach_trace(TraceWriter& t, const std::string& name) {
  t.process(0, name);
  for (auto& s : streams_)
    s->attach_trace(t, 0);
}

} // namespace tlmgpu
