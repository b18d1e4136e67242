// METIS / DIMACS10 .graph reader, following the METIS 5 manual section 4.1.1:
// header "n m [fmt [ncon]]" where m counts each undirected edge once; fmt is up
// to three binary digits "xyz" (x: vertex sizes, y: vertex weights, z: edge
// weights); then exactly n vertex lines, an empty line being an isolated
// vertex, so blank lines are data here, unlike in the other formats.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/text_input.hpp"
#include "workloads/graph/weight_reader.hpp"

#include <algorithm>
#include <tuple>

namespace tlmgpu::graph {

using namespace detail;

namespace {

struct Header {
  uint64_t n = 0, m = 0;
  bool vertex_sizes = false, vertex_weights = false, edge_weights = false;
  uint64_t ncon = 0; // vertex weights per vertex
  uint64_t line = 0;
};

Header parse_header(LineReader& in, const GraphBuildOptions& options) {
  std::string_view line;
  for (;;) {
    if (!in.next(line))
      in.fail_at(std::max<uint64_t>(in.line_number(), 1),
                 "empty file, expected 'n m [fmt [ncon]]'");
    if (!line.empty() && line[0] == '%') continue;
    if (!is_blank(line)) break;
  }
  std::vector<std::string_view> f;
  split_fields(line, f);
  if (f.size() < 2 || f.size() > 4)
    in.fail("header must be 'n m [fmt [ncon]]', found " + quote(line));
  Header h;
  h.line = in.line_number();
  h.n = parse_count(in, f[0], "vertex count");
  h.m = parse_count(in, f[1], "edge count");
  if (f.size() >= 3) {
    const std::string_view fmt = f[2];
    if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string_view::npos)
      in.fail("fmt must be up to three 0/1 digits, found " + quote(fmt));
    const std::string digits = std::string(3 - fmt.size(), '0') + std::string(fmt);
    h.vertex_sizes = digits[0] == '1';
    h.vertex_weights = digits[1] == '1';
    h.edge_weights = digits[2] == '1';
  }
  if (h.vertex_weights) h.ncon = 1;
  if (f.size() == 4) {
    if (!h.vertex_weights) in.fail("ncon given but fmt declares no vertex weights");
    h.ncon = parse_count(in, f[3], "ncon");
    if (h.ncon == 0 || h.ncon > 1024) in.fail("ncon " + std::to_string(h.ncon) + " out of range");
  }
  // An isolated vertex still needs its newline; each edge appears twice as "v ".
  check_claimed(in, h.n, 1, "vertices", options.max_vertices, options.limit_note);
  check_claimed(in, h.m, 4, "edges", options.max_edges / 2, options.limit_note);
  return h;
}

bool arc_before(const Edge& a, const Edge& b) {
  return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight);
}

// METIS requires both ends of an edge to list it with equal weights; kernels
// that treat the graph as undirected would silently misbehave otherwise.
void check_symmetric(const LineReader& in, const std::vector<Edge>& edges,
                     const std::vector<uint64_t>& vertex_line) {
  std::vector<Edge> sorted = edges;
  std::sort(sorted.begin(), sorted.end(), arc_before);
  auto pair_less = [](const Edge& a, const Edge& b) {
    return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
  };
  for (size_t i = 0; i < sorted.size();) {
    const Edge& e = sorted[i];
    const auto fwd = std::equal_range(sorted.begin() + i, sorted.end(), e, pair_less);
    const auto rev =
        std::equal_range(sorted.begin(), sorted.end(), Edge{e.dst, e.src, 0}, pair_less);
    const bool same = std::equal(fwd.first, fwd.second, rev.first, rev.second,
                                 [](const Edge& a, const Edge& b) { return a.weight == b.weight; });
    if (!same)
      in.fail_at(vertex_line[e.src], "edge " + std::to_string(e.src + 1) + "-" +
                                         std::to_string(e.dst + 1) + " is not listed by vertex " +
                                         std::to_string(e.dst + 1) +
                                         " the same number of times with the same weight");
    i = static_cast<size_t>(fwd.second - sorted.begin());
  }
}

} // namespace

CsrGraph read_metis(const std::string& path, const GraphBuildOptions& options) {
  check_limits(options);
  LineReader in(path);
  const Header h = parse_header(in, options);
  EdgeList list;
  describe(list, in, "METIS graph");
  WeightReader weights(options.weights);
  list.num_vertices = h.n;
  list.weighted = h.edge_weights && weights.keeps();
  list.undirected = true;
  list.edges.reserve(reservable(in, 2 * h.m));
  std::vector<uint64_t> vertex_line;
  vertex_line.reserve(reservable(in, h.n));

  const size_t skip = (h.vertex_sizes ? 1 : 0) + h.ncon;
  const size_t step = h.edge_weights ? 2 : 1;
  std::vector<std::string_view> f;
  std::string_view line;
  for (uint64_t v = 0; v < h.n;) {
    if (!in.next(line))
      in.fail("truncated: " + std::to_string(v) + " of the " + std::to_string(h.n) +
              " vertex lines declared on line " + std::to_string(h.line));
    if (!line.empty() && line[0] == '%') continue;
    vertex_line.push_back(in.line_number());
    split_fields(line, f);
    if (f.size() < skip)
      in.fail("vertex " + std::to_string(v + 1) + " needs " + std::to_string(skip) +
              " size/weight fields before its neighbours");
    for (size_t i = 0; i < skip; ++i)
      parse_count(in, f[i], "vertex size or weight");
    if ((f.size() - skip) % step != 0)
      in.fail("vertex " + std::to_string(v + 1) + ": neighbour without an edge weight");
    for (size_t i = skip; i < f.size(); i += step) {
      if (list.edges.size() >= 2 * h.m)
        in.fail("more than the 2 x " + std::to_string(h.m) +
                " adjacency entries the header declares (m counts each edge once)");
      Edge e{static_cast<VertexId>(v), parse_vertex_1based(in, f[i], h.n), 1};
      if (e.dst == e.src) in.fail("self-loop on vertex " + std::to_string(v + 1));
      if (h.edge_weights) e.weight = weights.read(in, f[i + 1], list.edges, true);
      list.edges.push_back(e);
    }
    ++v;
  }
  while (in.next(line))
    if (!is_blank(line) && line[0] != '%')
      in.fail("data after the " + std::to_string(h.n) + " vertex lines");
  if (list.edges.size() != 2 * h.m)
    in.fail_at(h.line, "header declares " + std::to_string(h.m) + " edges (" +
                           std::to_string(2 * h.m) + " adjacency entries) but the lists hold " +
                           std::to_string(list.edges.size()) + " entries");
  check_symmetric(in, list.edges, vertex_line);
  weights.finish(list);
  return build_csr(std::move(list), options);
}

} // namespace tlmgpu::graph
