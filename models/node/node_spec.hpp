// Everything a runtime node is built from: the fabric, the host, the
// runtime's policies, the GPUs' time model and the managed memory of the
// UVM programs (a node file's sections, include/tlmgpu/node.hpp).
#pragma once

#include "models/fabric/fabric_spec.hpp"
#include "models/runtime/runtime_spec.hpp"
#include "models/uvm/uvm_spec.hpp"

namespace tlmgpu {

struct NodeRuntimeSpec {
  FabricSpec fabric;
  NodeHostSpec host;
  RuntimeSpec runtime;
  GpuTimeSpec gpu_time;
  UvmSpec uvm;

  template <class V>
  void visit(V& v) { // the declared groups (the fabric's links are read apart)
    v.group("host", host);
    v.group("runtime", runtime);
    v.group("gpu_time", gpu_time);
    v.group("uvm", uvm);
  }
  void derive() {}
};

} // namespace tlmgpu
