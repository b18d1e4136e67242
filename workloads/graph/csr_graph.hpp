// The one graph representation every graph workload reads: compressed sparse
// rows (CSR) with 32-bit vertex ids, 32-bit row offsets and optional 32-bit
// unsigned edge weights. Readers and generators produce an EdgeList and call
// build_csr() so that self-loop, duplicate and symmetrization policy lives in
// exactly one place (GraphBuildOptions).
//
// Why 32-bit offsets: the simulated kernels load row_offsets from device
// memory, and GPU graph codes (Pannotia, Lonestar, Gunrock's defaults) use
// 32-bit offsets, so the memory traffic matches theirs. build_csr() refuses
// more than kMaxEdges (2^31) arcs, which keeps every offset representable.
//
// Why unsigned integer weights: SSSP relaxes distances with a device-scope
// atomicMin, which GPUs provide natively for 32-bit integers, and integer
// path sums make the CPU reference comparison exact. Readers map the values in
// a file to these integers by a WeightPolicy (input_options.hpp): fractional
// values become fixed point (weight_scale), negative ones are an error unless
// the policy says otherwise; see workloads/graph/README.md, "Weights".
#pragma once

#include "workloads/graph/input_options.hpp"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tlmgpu::graph {

using VertexId = uint32_t;
using EdgeOffset = uint32_t;
using Weight = uint32_t;

// Hard ceilings. They are what the 32-bit types can hold, not tuning knobs;
// GraphBuildOptions carries the (smaller, adjustable) limits actually applied.
inline constexpr uint64_t kMaxEdges = uint64_t{1} << 31;
inline constexpr uint64_t kMaxVertices = uint64_t{1} << 31;

// A malformed input file. what() is one line, "<file>:<line>: <problem>", or
// "<file>: <problem>" when no line is involved (file missing or unreadable).
class GraphFormatError : public std::runtime_error {
public:
  GraphFormatError(const std::string& file, uint64_t line, const std::string& problem);
  const std::string& file() const { return file_; }
  uint64_t line() const { return line_; } // 0 when the error concerns the whole file
  const std::string& problem() const { return problem_; }

private:
  std::string file_;
  uint64_t line_;
  std::string problem_;
};

struct GraphBuildOptions {
  // Add the reverse of every arc (self-loops are not doubled) and mark the
  // graph undirected. Arcs already present in both directions then appear
  // twice, so this is normally combined with remove_duplicate_edges.
  bool symmetrize = false;
  bool remove_self_loops = false;
  // Collapse parallel arcs u->v into one, keeping the smallest weight (the
  // one a shortest-path kernel would use anyway).
  bool remove_duplicate_edges = false;
  // SNAP edge lists only (the other formats fix n in a header): renumber the
  // ids that occur to 0..k-1 in increasing order and keep the file's ids in
  // CsrGraph::original_ids. as20graph.txt uses ids 1..65105 for 6474 ASes;
  // without compaction n = max id + 1 and 58632 isolated vertices would skew
  // every kernel. false keeps the file's ids (0-based, n = max id + 1).
  bool compact_snap_ids = true;
  // Resource limits checked before anything is allocated; an input above them
  // is an error, never a huge allocation. Both must stay within the hard
  // ceilings above.
  uint64_t max_vertices = uint64_t{1} << 27;
  uint64_t max_edges = kMaxEdges;
  // Set by load_graph() when the memory budget (--max-memory), not the
  // numbers above, is what limits the graph: appended to the limit in
  // errors (limit_text), so that the message names the argument to raise.
  std::string limit_note;
  // Readers only: the format when the file name does not say (automatic:
  // from the extension, else from the content), and how file weights become
  // Weight values.
  GraphFormat format = GraphFormat::automatic;
  WeightPolicy weights;

  // The defaults: the graph exactly as the file stores it.
  static GraphBuildOptions as_stored() { return {}; }
  // What most graph kernels want: undirected, no self-loops, no multi-edges.
  static GraphBuildOptions simple_undirected() {
    GraphBuildOptions o;
    o.symmetrize = o.remove_self_loops = o.remove_duplicate_edges = true;
    return o;
  }
};

// One arc src->dst; weight is ignored when the edge list is unweighted.
struct Edge {
  VertexId src = 0;
  VertexId dst = 0;
  Weight weight = 1;
};

// What a reader or generator hands to build_csr().
struct EdgeList {
  uint64_t num_vertices = 0;
  std::vector<Edge> edges;
  bool weighted = false;
  // True when the source already stores both directions of every edge (METIS,
  // Matrix Market `symmetric` after mirroring, grids); build_csr() keeps it.
  bool undirected = false;
  std::vector<uint64_t> original_ids;    // empty, or the file's id of each vertex
  std::vector<std::string> vertex_names; // empty, or the file's name of each vertex
  std::string name;                      // short name, e.g. the file stem or "rmat"
  std::string source;                    // where it came from: path and format, or generator spec
  // Weight = file value x weight_scale (rounded); see CsrGraph.
  double weight_scale = 1;
  uint64_t raised_weights = 0, negated_weights = 0;
};

class CsrGraph {
public:
  std::string name;
  std::string source;
  bool directed = true;
  std::vector<EdgeOffset> row_offsets{0}; // size num_vertices() + 1
  std::vector<VertexId> col_indices;      // size num_edges()
  std::vector<Weight> weights;            // empty, or size num_edges()
  // Empty when vertex v is the file's id v (or v + 1 in 1-based formats);
  // otherwise the file's id of each vertex (compacted SNAP ids, GML ids).
  std::vector<uint64_t> original_ids;
  // Empty, or each vertex's name: edge lists whose ids are names, GML labels.
  // Result files print these in preference to original_ids.
  std::vector<std::string> vertex_names;
  // Stored weight = round(file value x weight_scale): 1 unless the reader
  // made fractional values fixed point. raised_weights counts positive
  // values that would have rounded to 0 and were stored as 1;
  // negated_weights the negative ones made positive (weights=abs).
  double weight_scale = 1;
  uint64_t raised_weights = 0, negated_weights = 0;

  uint64_t num_vertices() const { return row_offsets.size() - 1; }
  // Stored arcs: an undirected edge counts twice, a self-loop once.
  uint64_t num_edges() const { return col_indices.size(); }
  bool has_weights() const { return !weights.empty(); }
  uint32_t degree(VertexId v) const { return row_offsets[v + 1] - row_offsets[v]; }
  std::span<const VertexId> neighbors(VertexId v) const {
    return {col_indices.data() + row_offsets[v], degree(v)};
  }
  std::span<const Weight> neighbor_weights(VertexId v) const {
    return {weights.data() + row_offsets[v], has_weights() ? degree(v) : 0u};
  }
  uint64_t count_self_loops() const;

  // Sorts each adjacency list by target (weights move with their targets).
  // build_csr() already returns sorted lists; this is for hand-built graphs.
  void sort_neighbors();
  bool neighbors_sorted() const;

  // Throws std::logic_error naming the first broken invariant: offsets start
  // at 0, never decrease and end at num_edges(); targets are < num_vertices();
  // weights are empty or parallel to col_indices; original_ids and
  // vertex_names are empty or one per vertex; an undirected graph holds
  // the reverse of every arc with the same weight.
  void validate() const;
};

// Memory a graph takes per arc and per vertex, for the budget (memory_budget.hpp):
// an arc is a 12-byte Edge while read (twice while symmetrized), its CSR target
// and weight, and their copies in simulated device memory; a vertex its row
// offset, original id and the kernels' per-vertex arrays on host and device.
inline constexpr uint64_t kBytesPerArc = 40;
inline constexpr uint64_t kBytesPerVertex = 48;

// `limit` as errors print it: the number and options.limit_note.
std::string limit_text(uint64_t limit, const GraphBuildOptions& options);

// Applies `options` to `list` (consuming its edge vector) and returns sorted
// CSR. Throws GraphFormatError (file = list.source, line 0) when the result
// would exceed the options' limits.
CsrGraph build_csr(EdgeList list, const GraphBuildOptions& options);

// Throws std::invalid_argument when the limits exceed the hard ceilings.
void check_limits(const GraphBuildOptions& options);

} // namespace tlmgpu::graph
