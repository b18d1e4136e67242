// Everything a runtime node is built from: the fabric, the host, the
// runtime's policies, the GPUs' time model, what a GPU is (gpu_model) and
// the managed memory of the UVM programs (a node file's sections, include/tlmgpu/node.hpp).
#pragma once

#include "models/fabric/fabric_spec.hpp"
#include "models/runtime/runtime_spec.hpp"
#include "models/uvm/uvm_spec.hpp"

namespace tlmgpu {

// What a GPU of the node is (issue 17 item 1): the calibrated kernel-time
// model (paper-size runs), or the simulator's full GPU model (small runs),
// one instance per GPU the runtime uses, that runs the tasks' real kernels
// on their blocks' bytes.
struct GpuModelSpec {
  std::string kind, platform;
  uint64_t memory_mib = 0;

  template <class V>
  void visit(V& v) {
    v.choice(kind, "kind", "kernel_time", {"kernel_time", "full"},
             "a GPU of the node: the kernel-time model (gpu_time), or the full GPU model "
             "running each task's real kernel (programs with real kernels only)");
    v.text(platform, "platform", "",
           "kind=full: the platform file of every node GPU (e.g. tiny.json, gtx980.json; "
           "relative to the node file); \"\" = the node's gpus[] platforms");
    v.param(memory_mib, "memory_mib", 64, Range{1, 1u << 20}, "MiB",
            "kind=full: device memory of each full GPU (held in the simulator's RAM, within "
            "--max-memory); the runtime's capacity per GPU");
  }
  void derive() {}
};

struct NodeRuntimeSpec {
  FabricSpec fabric;
  NodeHostSpec host;
  RuntimeSpec runtime;
  GpuTimeSpec gpu_time;
  UvmSpec uvm;
  GpuModelSpec gpu_model;

  template <class V>
  void visit(V& v) { // the declared groups (the fabric's links are read apart)
    v.group("host", host);
    v.group("runtime", runtime);
    v.group("gpu_time", gpu_time);
    v.group("uvm", uvm);
    v.group("gpu_model", gpu_model);
  }
  void derive() {}
};

} // namespace tlmgpu
