#include "workloads/graph/csr_graph.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace tlmgpu::graph {

namespace {

std::string format_error(const std::string& file, uint64_t line, const std::string& problem) {
  if (line == 0) return file + ": " + problem;
  return file + ":" + std::to_string(line) + ": " + problem;
}

bool arc_less(const Edge& a, const Edge& b) {
  return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight);
}

} // namespace

GraphFormatError::GraphFormatError(const std::string& file, uint64_t line,
                                   const std::string& problem)
    : std::runtime_error(format_error(file, line, problem)), file_(file), line_(line),
      problem_(problem) {}

std::string limit_text(uint64_t limit, const GraphBuildOptions& options) {
  return std::to_string(limit) + options.limit_note;
}

void check_limits(const GraphBuildOptions& options) {
  if (options.max_vertices > kMaxVertices)
    throw std::invalid_argument("GraphBuildOptions::max_vertices above 2^31");
  if (options.max_edges > kMaxEdges)
    throw std::invalid_argument("GraphBuildOptions::max_edges above 2^31");
}

CsrGraph build_csr(EdgeList list, const GraphBuildOptions& options) {
  check_limits(options);
  auto fail = [&](const std::string& problem) { throw GraphFormatError(list.source, 0, problem); };
  if (list.num_vertices > options.max_vertices)
    fail(std::to_string(list.num_vertices) + " vertices exceed the limit of " +
         limit_text(options.max_vertices, options));
  std::vector<Edge>& edges = list.edges;
  for (const Edge& e : edges)
    if (e.src >= list.num_vertices || e.dst >= list.num_vertices)
      throw std::invalid_argument("build_csr: edge endpoint out of range in " + list.source);

  if (options.remove_self_loops) std::erase_if(edges, [](const Edge& e) { return e.src == e.dst; });
  if (options.symmetrize) {
    const auto loops =
        std::count_if(edges.begin(), edges.end(), [](const Edge& e) { return e.src == e.dst; });
    const uint64_t total = 2 * edges.size() - static_cast<uint64_t>(loops);
    // Checked before reserving: symmetrizing may double a legal input past the limit.
    if (total > options.max_edges)
      fail("symmetrizing gives " + std::to_string(total) + " arcs, above the limit of " +
           limit_text(options.max_edges, options));
    const size_t original = edges.size();
    edges.reserve(total);
    for (size_t i = 0; i < original; ++i)
      if (edges[i].src != edges[i].dst)
        edges.push_back({edges[i].dst, edges[i].src, edges[i].weight});
  }
  std::sort(edges.begin(), edges.end(), arc_less);
  if (options.remove_duplicate_edges) {
    // Sorted by weight within (src, dst), so the kept first arc has the minimum.
    auto last = std::unique(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
      return a.src == b.src && a.dst == b.dst;
    });
    edges.erase(last, edges.end());
  }
  if (edges.size() > options.max_edges)
    fail(std::to_string(edges.size()) + " arcs exceed the limit of " +
         limit_text(options.max_edges, options));

  CsrGraph g;
  g.name = std::move(list.name);
  g.source = std::move(list.source);
  g.directed = !(list.undirected || options.symmetrize);
  g.original_ids = std::move(list.original_ids);
  g.vertex_names = std::move(list.vertex_names);
  g.weight_scale = list.weight_scale;
  g.raised_weights = list.raised_weights;
  g.negated_weights = list.negated_weights;
  g.row_offsets.assign(list.num_vertices + 1, 0);
  g.col_indices.resize(edges.size());
  if (list.weighted) g.weights.resize(edges.size());
  for (const Edge& e : edges)
    ++g.row_offsets[e.src + 1];
  std::partial_sum(g.row_offsets.begin(), g.row_offsets.end(), g.row_offsets.begin());
  for (size_t i = 0; i < edges.size(); ++i) { // edges are sorted by src: positions are i
    g.col_indices[i] = edges[i].dst;
    if (list.weighted) g.weights[i] = edges[i].weight;
  }
  return g;
}

uint64_t CsrGraph::count_self_loops() const {
  uint64_t loops = 0;
  for (VertexId v = 0; v < num_vertices(); ++v)
    for (VertexId u : neighbors(v))
      loops += (u == v);
  return loops;
}

void CsrGraph::sort_neighbors() {
  std::vector<std::pair<VertexId, Weight>> scratch;
  for (VertexId v = 0; v < num_vertices(); ++v) {
    const EdgeOffset begin = row_offsets[v], end = row_offsets[v + 1];
    scratch.clear();
    for (EdgeOffset i = begin; i < end; ++i)
      scratch.emplace_back(col_indices[i], has_weights() ? weights[i] : 0);
    std::sort(scratch.begin(), scratch.end());
    for (EdgeOffset i = begin; i < end; ++i) {
      col_indices[i] = scratch[i - begin].first;
      if (has_weights()) weights[i] = scratch[i - begin].second;
    }
  }
}

bool CsrGraph::neighbors_sorted() const {
  for (VertexId v = 0; v < num_vertices(); ++v) {
    auto adj = neighbors(v);
    if (!std::is_sorted(adj.begin(), adj.end())) return false;
  }
  return true;
}

void CsrGraph::validate() const {
  auto broken = [&](const std::string& what) {
    throw std::logic_error("CsrGraph '" + name + "': " + what);
  };
  if (row_offsets.empty() || row_offsets.front() != 0) broken("row_offsets must start at 0");
  if (row_offsets.back() != col_indices.size())
    broken("row_offsets end at " + std::to_string(row_offsets.back()) + " but there are " +
           std::to_string(col_indices.size()) + " arcs");
  for (size_t v = 0; v + 1 < row_offsets.size(); ++v)
    if (row_offsets[v] > row_offsets[v + 1])
      broken("row_offsets decrease at vertex " + std::to_string(v));
  for (size_t i = 0; i < col_indices.size(); ++i)
    if (col_indices[i] >= num_vertices())
      broken("arc " + std::to_string(i) + " targets vertex " + std::to_string(col_indices[i]) +
             " >= " + std::to_string(num_vertices()));
  if (!weights.empty() && weights.size() != col_indices.size())
    broken("weights and col_indices differ in size");
  if (!original_ids.empty() && original_ids.size() != num_vertices())
    broken("original_ids and vertices differ in count");
  if (!vertex_names.empty() && vertex_names.size() != num_vertices())
    broken("vertex_names and vertices differ in count");
  if (directed) return;
  // Undirected: the multiset of arcs must equal the multiset of reversed arcs.
  std::vector<Edge> fwd, rev;
  fwd.reserve(num_edges());
  rev.reserve(num_edges());
  for (VertexId v = 0; v < num_vertices(); ++v)
    for (EdgeOffset i = row_offsets[v]; i < row_offsets[v + 1]; ++i) {
      const Weight w = has_weights() ? weights[i] : 1;
      fwd.push_back({v, col_indices[i], w});
      rev.push_back({col_indices[i], v, w});
    }
  std::sort(fwd.begin(), fwd.end(), arc_less);
  std::sort(rev.begin(), rev.end(), arc_less);
  for (size_t i = 0; i < fwd.size(); ++i) {
    if (!arc_less(fwd[i], rev[i]) && !arc_less(rev[i], fwd[i])) continue;
    // The smaller one is the element without a partner; name the arc it came from.
    const bool in_fwd = arc_less(fwd[i], rev[i]);
    const VertexId u = in_fwd ? fwd[i].src : rev[i].dst, v = in_fwd ? fwd[i].dst : rev[i].src;
    broken("undirected graph lacks the reverse of arc " + std::to_string(u) + "->" +
           std::to_string(v) + " (or its weight differs)");
  }
}

} // namespace tlmgpu::graph
