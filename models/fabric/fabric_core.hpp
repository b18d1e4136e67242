// Link timing of a node fabric, without SystemC (README.md). Each link has
// one server per direction with a busy-until time. A copy moves in chunks;
// a chunk is queued on every hop of its path at once, each hop serving it at
// its own bandwidth from when that hop is free (in reservation order), and
// it has left when its slowest hop is done; it arrives after the hops'
// latencies on top (cut-through). The next chunk of the same copy is
// reserved when the previous one has left, so copies sharing a hop
// interleave their chunks and each sees its share of it.
#pragma once

#include "models/fabric/fabric_spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tlmgpu {

using Picos = uint64_t; // fabric times are in picoseconds (SystemC's default resolution)

class FabricCore {
public:
  struct Hop {
    uint32_t link;
    bool forward; // a -> b
  };
  using Path = std::vector<Hop>;
  struct Slot {
    Picos start, leave, arrive; // reserved [start, leave) on every hop; data in at `arrive`
  };
  struct Direction {
    Picos busy_until = 0, busy = 0, queued = 0; // queued: chunk waits for the hop
    uint64_t bytes = 0, chunks = 0;
  };

  // Checks the spec (unique names, known points, positive bandwidths, every
  // GPU reachable from every host memory without NVLink); ConfigError naming
  // the link or point otherwise.
  FabricCore(const FabricSpec& spec, uint32_t gpus);

  // Host memory `mem` (an index into spec.host_memory) -> GPU, over PCIe/QPI
  // (never through another GPU's NVLink). Reverse it for device -> host.
  const Path& host_path(uint32_t mem, uint32_t gpu) const { return host_[mem][gpu]; }
  // The direct NVLink hop from a to b (the widest when there are several);
  // empty when the pair has none and a copy must be staged through the host.
  const Path& peer_path(uint32_t a, uint32_t b) const { return peer_[a][b]; }
  static Path reversed(const Path& p);

  // Reserves one chunk of `bytes` on `path`, ready to leave at `ready`.
  Slot reserve(const Path& path, uint64_t bytes, Picos ready);
  // Time for `bytes` alone on `path` (no other traffic): the closed form
  // bytes / narrowest + latencies, as the chunks would take it.
  Picos alone(const Path& path, uint64_t bytes) const;

  const FabricSpec& spec() const { return spec_; }
  size_t links() const { return spec_.links.size(); }
  const Direction& direction(uint32_t link, bool forward) const {
    return dirs_[2 * link + (forward ? 0 : 1)];
  }
  uint32_t memories() const { return uint32_t(spec_.host_memory.size()); }
  uint32_t gpus() const { return gpus_; }

private:
  Picos duration(const Path& p, uint64_t bytes) const;
  Picos latency(const Path& p) const;
  FabricSpec spec_;
  uint32_t gpus_;
  std::vector<Direction> dirs_;
  std::vector<std::vector<Path>> host_, peer_;
};

} // namespace tlmgpu
