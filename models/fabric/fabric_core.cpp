#include "models/fabric/fabric_core.hpp"

#include "tlmgpu/params.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>

namespace tlmgpu {
namespace {

std::string gpu_point(uint32_t i) {
  return "gpu" + std::to_string(i);
}

} // namespace

FabricCore::FabricCore(const FabricSpec& spec, uint32_t gpus) : spec_(spec), gpus_(gpus) {
  std::map<std::string, uint32_t> point;
  for (uint32_t g = 0; g < gpus; ++g)
    point[gpu_point(g)] = g;
  for (const std::string& p : spec.points) {
    if (point.count(p))
      throw ConfigError("fabric.points: '" + p + "' is declared twice (GPUs are gpu0..gpu" +
                        std::to_string(gpus - 1) + " and need no declaration)");
    const uint32_t id = uint32_t(point.size());
    point[p] = id;
  }
  if (spec.chunk_bytes == 0) throw ConfigError("fabric.chunk_bytes: must be at least 1");
  std::map<std::string, bool> names;
  // adjacency: point -> (link, forward) without NVLink, for host paths
  std::vector<std::vector<Hop>> adj(point.size());
  peer_.assign(gpus, std::vector<Path>(gpus));
  for (uint32_t l = 0; l < spec.links.size(); ++l) {
    const LinkSpec& k = spec.links[l];
    const std::string where = "fabric.links[" + std::to_string(l) + "] ('" + k.name + "')";
    if (k.name.empty()) throw ConfigError(where + ": needs a name");
    if (names[k.name]) throw ConfigError(where + ": a second link named '" + k.name + "'");
    names[k.name] = true;
    for (const std::string* end : {&k.a, &k.b})
      if (!point.count(*end))
        throw ConfigError(where + ": unknown point '" + *end + "' (declare it in fabric.points" +
                          " or use gpu0..gpu" + std::to_string(gpus - 1) + ")");
    if (k.a == k.b) throw ConfigError(where + ": joins '" + k.a + "' to itself");
    if (!(k.gbps > 0) || !std::isfinite(k.gbps))
      throw ConfigError(where + ": gbps must be a positive number");
    if (!(k.latency_us >= 0) || !std::isfinite(k.latency_us))
      throw ConfigError(where + ": latency_us must be a non-negative number");
    if (k.kind == "nvlink") {
      const uint32_t a = point[k.a], b = point[k.b];
      if (a >= gpus || b >= gpus) throw ConfigError(where + ": an nvlink joins two GPUs");
      // the widest link of a pair carries its peer copies
      for (auto [x, y, fwd] : {std::tuple{a, b, true}, std::tuple{b, a, false}}) {
        Path& p = peer_[x][y];
        if (p.empty() || spec.links[p[0].link].gbps < k.gbps) p = {Hop{l, fwd}};
      }
    } else if (k.kind == "pcie" || k.kind == "qpi" || k.kind == "dram") {
      adj[point[k.a]].push_back({l, true});
      adj[point[k.b]].push_back({l, false});
    } else {
      throw ConfigError(where + ": kind must be one of \"pcie\", \"qpi\", \"dram\", \"nvlink\"");
    }
  }
  if (spec.host_memory.empty())
    throw ConfigError("fabric.host_memory: name at least one point where host buffers live");
  for (const std::string& m : spec.host_memory) {
    if (!point.count(m) || point[m] < gpus)
      throw ConfigError("fabric.host_memory: '" + m + "' is not a declared point");
    // breadth-first from the memory; ties go to the link listed first
    const uint32_t src = point[m];
    std::vector<int64_t> via(point.size(), -1);
    std::vector<bool> seen(point.size(), false);
    std::deque<uint32_t> q{src};
    seen[src] = true;
    std::vector<Hop> in_hop(point.size());
    while (!q.empty()) {
      const uint32_t u = q.front();
      q.pop_front();
      for (const Hop& h : adj[u]) {
        const LinkSpec& k = spec.links[h.link];
        const uint32_t v = point[h.forward ? k.b : k.a];
        if (seen[v]) continue;
        // a path may not pass through a GPU
        seen[v] = true;
        via[v] = u;
        in_hop[v] = h;
        if (v >= gpus) q.push_back(v);
      }
    }
    std::vector<Path> paths(gpus);
    for (uint32_t g = 0; g < gpus; ++g) {
      if (!seen[g])
        throw ConfigError("fabric: " + gpu_point(g) + " cannot be reached from host memory '" + m +
                          "' over pcie/qpi/dram links");
      for (uint32_t v = g; v != src; v = uint32_t(via[v]))
        paths[g].push_back(in_hop[v]);
      std::reverse(paths[g].begin(), paths[g].end());
    }
    host_.push_back(std::move(paths));
  }
  dirs_.assign(2 * spec.links.size(), Direction{});
}

FabricCore::Path FabricCore::reversed(const Path& p) {
  Path r(p.rbegin(), p.rend());
  for (Hop& h : r)
    h.forward = !h.forward;
  return r;
}

Picos FabricCore::duration(const Path& p, uint64_t bytes) const {
  double narrowest = 0;
  for (const Hop& h : p) {
    const double g = spec_.links[h.link].gbps;
    narrowest = narrowest == 0 ? g : std::min(narrowest, g);
  }
  // bytes / (gbps * 1e9 B/s) in ps = bytes * 1000 / gbps
  return Picos(std::ceil(double(bytes) * 1000.0 / narrowest));
}

Picos FabricCore::latency(const Path& p) const {
  double us = 0;
  for (const Hop& h : p)
    us += spec_.links[h.link].latency_us;
  return Picos(std::llround(us * 1e6));
}

FabricCore::Slot FabricCore::reserve(const Path& path, uint64_t bytes, Picos ready) {
  // Each hop serves chunks in the order they are reserved, at its own rate,
  // from when it is free; the chunk has left when its slowest hop is done.
  // (Holding all hops from one common start would reserve a wide, idle hop
  // in the future behind a congested one and block every other flow on it
  // until then; STREAM on 8 GPUs then used 16 % of its PCIe links.)
  Picos first = std::numeric_limits<Picos>::max(), leave = ready;
  for (const Hop& h : path) {
    Direction& dir = dirs_[2 * h.link + (h.forward ? 0 : 1)];
    const Picos start = std::max(ready, dir.busy_until), own = duration({h}, bytes);
    dir.queued += start - ready;
    dir.busy_until = start + own;
    dir.busy += own;
    dir.bytes += bytes;
    ++dir.chunks;
    first = std::min(first, start);
    leave = std::max(leave, start + own);
  }
  return {path.empty() ? ready : first, leave, leave + latency(path)};
}

Picos FabricCore::alone(const Path& path, uint64_t bytes) const {
  if (bytes == 0) return latency(path);
  const uint64_t full = bytes / spec_.chunk_bytes, rest = bytes % spec_.chunk_bytes;
  return full * duration(path, spec_.chunk_bytes) + (rest ? duration(path, rest) : 0) +
         latency(path);
}

} // namespace tlmgpu
