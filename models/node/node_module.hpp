// A multi-GPU node running the task runtime (README.md): the fabric, one
// stream engine per GPU on it, the host with its workers and the program's
// driver, the runtime core they share, and with gpu_model.kind = full a
// full GPU model per GPU the runtime uses.
#pragma once

#include "models/fabric/fabric_module.hpp"
#include "models/node/node_gpu_module.hpp"
#include "models/node/node_host_module.hpp"
#include "models/node/node_spec.hpp"
#include "models/node/stream_engine_module.hpp"
#include "models/runtime/runtime.hpp"

#include <memory>
#include <vector>

namespace tlmgpu {

class NodeModule : public sc_core::sc_module {
public:
  // `gpus`: the node's GPUs' platforms (the runtime may use fewer,
  // runtime.gpus; read with gpu_model.kind = full only); `whole_transfers`:
  // LT (a copy reserves its path once, no chunks).
  NodeModule(sc_core::sc_module_name n, const NodeRuntimeSpec& spec,
             const std::vector<PlatformSpec>& gpus, RunContext& run, bool whole_transfers);
  rt::Runtime& runtime() { return *rt_; }
  uvm::ManagedMemory& uvm() { return *uvm_; }
  NodeHostModule& host() { return *host_; }
  FabricModule& fabric() { return *fabric_; }
  // The full GPU models (gpu_model.kind = full), one per GPU the runtime uses.
  const std::vector<std::unique_ptr<NodeGpuModule>>& devices() const { return devices_; }
  // The streams' operations as spans, one track per GPU, and the host
  // workers' work, one track per worker (tlmgpu run --trace).
  void attach_trace(TraceWriter& t, const std::string& name);

private:
  StatGroup stats_;
  std::unique_ptr<rt::Runtime> rt_;
  std::unique_ptr<uvm::ManagedMemory> uvm_;
  std::unique_ptr<FabricModule> fabric_;
  std::vector<std::unique_ptr<StreamEngineModule>> streams_;
  std::vector<std::unique_ptr<NodeGpuModule>> devices_; // gpu_model.kind = full
  std::unique_ptr<NodeHostModule> host_;
};

} // namespace tlmgpu
