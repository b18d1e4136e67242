// A multi-GPU node running the task runtime (README.md): the fabric, one
// stream engine per GPU on it, the host with its workers and the program's
// driver, and the runtime core they share.
#pragma once

#include "models/fabric/fabric_module.hpp"
#include "models/node/node_host_module.hpp"
#include "models/node/node_spec.hpp"
#include "models/node/stream_engine_module.hpp"
#include "models/runtime/runtime.hpp"

#include <memory>
#include <vector>

namespace tlmgpu {

class NodeModule : public sc_core::sc_module {
public:
  // `gpus`: GPUs in the node (the runtime may use fewer, runtime.gpus);
  // `whole_transfers`: LT (a copy reserves its path once, no chunks).
  NodeModule(sc_core::sc_module_name n, const NodeRuntimeSpec& spec, uint32_t gpus, uint64_t seed,
             bool whole_transfers, StatGroup& parent);
  rt::Runtime& runtime() { return *rt_; }
  uvm::ManagedMemory& uvm() { return *uvm_; }
  NodeHostModule& host() { return *host_; }
  FabricModule& fabric() { return *fabric_; }
  // The streams' operations as spans, one track per GPU (tlmgpu run --trace).
  void attach_trace(TraceWriter& t, const std::string& name);

private:
  StatGroup stats_;
  std::unique_ptr<rt::Runtime> rt_;
  std::unique_ptr<uvm::ManagedMemory> uvm_;
  std::unique_ptr<FabricModule> fabric_;
  std::vector<std::unique_ptr<StreamEngineModule>> streams_;
  std::unique_ptr<NodeHostModule> host_;
};

} // namespace tlmgpu
