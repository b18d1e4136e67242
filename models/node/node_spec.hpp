// Everything a runtime node is built from: the fabric, the host, the
// runtime's policies and the GPUs' time model (a node file's sections,
// include/tlmgpu/node.hpp).
#pragma once

#include "models/fabric/fabric_spec.hpp"
#include "models/runtime/runtime_spec.hpp"

namespace tlmgpu {

struct NodeRuntimeSpec {
  FabricSpec fabric;
  NodeHostSpec host;
  RuntimeSpec runtime;
  GpuTimeSpec gpu_time;

  template <class V>
  void visit(V& v) { // the declared groups (the fabric's links are read apart)
    v.group("host", host);
    v.group("runtime", runtime);
    v.group("gpu_time", gpu_time);
  }
  void derive() {}
};

} // namespace tlmgpu
