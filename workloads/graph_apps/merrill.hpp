// version=gpu-merrill of bfs-frontier, sssp and pagerank: the thesis' GPU
// baseline (seed-003 §1.3-1.5; Merrill, Garland & Grimshaw, "Scalable GPU
// graph traversal", PPoPP 2012 / TOPC 2015; Davidson et al.'s SSSP and Geil
// et al.'s PageRank use the same load-balanced expansion), an expansion and
// a contraction kernel per level, in the same phase structure as the SCU
// versions.
//
// Expansion (one thread per frontier vertex): a CTA-wide scan of the
// out-degrees gives every list its place in the edge frontier and the CTA
// reserves them with one atomicAdd; then lists of at least a CTA's threads
// are gathered by the whole CTA (threads compete for the CTA through shared
// memory), lists of at least a warp by the warp, and the rest by the
// scan-based fine-grained gathering (ranks of the remaining arcs written to
// a shared buffer that the CTA then reads one arc per thread).
//
// Contraction (one thread per edge-frontier element): a plain load of the
// depth culls visited vertices (Merrill's label lookup), the survivors
// claim with atomicCAS(depth, inf, L + 1), and the winners are compacted
// into the next frontier by a CTA scan and one atomicAdd per CTA.
#pragma once

#include "workloads/graph_apps/graph_app.hpp"

namespace tlmgpu::graph_apps {

struct MerrillLevel {
  DeviceCsr g;
  Addr depth = 0;
  Addr in = 0, out = 0, count = 0; // vertex frontiers, next frontier's counter
  Addr edges = 0, edge_count = 0;  // the edge frontier and its counter
  uint32_t n = 0, level = 0;       // n: elements the kernel takes (frontier or edges)
  // SSSP (costs != 0): the expansion also writes dist[v] + w of each arc to
  // the cost frontier `costs` and resets lookup[v] of each frontier vertex.
  Addr costs = 0, dist = 0, lookup = 0;
  // PageRank (rank != 0, costs = the weight frontier): the expansion writes
  // each arc's share rank[v] / outdeg(v) to `costs` instead (no dist, no
  // lookup, no weights).
  Addr rank = 0;
};

// Shared memory per CTA of either kernel (bytes), for the launch.
uint32_t merrill_shared_bytes(uint32_t block, uint32_t warp_size);

WarpTask merrill_expand(Warp& w, MerrillLevel a);   // in[0, n) -> edges, edge_count
WarpTask merrill_contract(Warp& w, MerrillLevel a); // bfs: edges[0, n) -> out, count

} // namespace tlmgpu::graph_apps
