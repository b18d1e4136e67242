// The links of a multi-GPU node (seed-004 §5.2, §7.1): PCIe switches with
// shared uplinks, the inter-socket QPI, host DRAM and NVLink peer links, each
// a named link between two named points with a per-direction bandwidth and a
// latency. GPUs are the points "gpu0".."gpu<G-1>"; every other point is
// declared in `points`. Read from a node file's "fabric" section (node.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlmgpu {

struct LinkSpec {
  std::string name, a, b;
  std::string kind; // "pcie", "qpi", "dram" or "nvlink" (only nvlink carries peer copies)
  double gbps = 0;  // per direction, 1e9 bytes/s (NV2 = two links = twice the bandwidth)
  double latency_us = 0;
};

struct FabricSpec {
  uint64_t chunk_bytes = 1 << 20;       // a transfer moves in chunks; each reserves its whole path
  std::vector<std::string> points;      // switches, sockets, host memories (not GPUs)
  std::vector<std::string> host_memory; // where pinned host buffers live (buffer i at [i % n])
  std::vector<LinkSpec> links;
};

} // namespace tlmgpu
