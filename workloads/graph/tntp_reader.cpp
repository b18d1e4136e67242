// TNTP network reader (bstabler/TransportationNetworks `*_net.tntp`).
//
// The weight is the `length` column, not free_flow_time, as the distance a
// shortest path should minimise. Lengths are integral feet in some networks
// (Anaheim) and fractional miles in others; the weight policy keeps the
// latter as fixed point (x1000 by default), so no positive length becomes 0
// (which made SSSP answer distance 0 for thousands of vertices). Zone nodes (ids below
// <FIRST THRU NODE>) are centroids in traffic assignment; graph kernels treat
// them as ordinary vertices and the value is only recorded in `source`.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/text_input.hpp"
#include "workloads/graph/weight_reader.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace tlmgpu::graph {

using namespace detail;

namespace {

// Column positions; the defaults are the standard TNTP order used when a file
// has no '~' header.
struct Columns {
  size_t init = 0, term = 1, length = 3;
  size_t needed() const { return std::max({init, term, length}) + 1; }
};

std::optional<size_t> find_column(const std::vector<std::string_view>& names,
                                  std::string_view wanted) {
  for (size_t i = 0; i < names.size(); ++i) {
    std::string lower(names[i]);
    for (char& c : lower)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == wanted) return i;
  }
  return std::nullopt;
}

Columns parse_column_header(const LineReader& in, std::string_view line) {
  std::vector<std::string_view> f;
  split_fields(line.substr(1), f); // drop the '~'
  if (!f.empty() && f.back() == ";") f.pop_back();
  Columns c;
  const auto init = find_column(f, "init_node"), term = find_column(f, "term_node"),
             length = find_column(f, "length");
  if (!init || !term || !length) in.fail("column header lacks init_node, term_node or length");
  c.init = *init;
  c.term = *term;
  c.length = *length;
  return c;
}

} // namespace

CsrGraph read_tntp(const std::string& path, const GraphBuildOptions& options) {
  check_limits(options);
  LineReader in(path);
  EdgeList list;
  describe(list, in, "TNTP");
  WeightReader weights(options.weights);
  list.weighted = weights.keeps();

  std::vector<std::string_view> f;
  std::string_view line;
  std::optional<uint64_t> nodes, links;
  std::string first_thru;
  for (;;) {
    if (!in.next(line))
      in.fail_at(std::max<uint64_t>(in.line_number(), 1),
                 in.line_number() == 0 ? "empty file" : "truncated: no <END OF METADATA>");
    if (is_blank(line) || line[0] == '~') continue;
    const size_t open = line.find('<'), close = line.find('>');
    if (open != line.find_first_not_of(" \t") || close == std::string_view::npos)
      in.fail("expected '<KEY> value' metadata, found " + quote(line));
    const std::string_view key = line.substr(open + 1, close - open - 1);
    if (key == "END OF METADATA") break;
    split_fields(line.substr(close + 1), f);
    if (key == "NUMBER OF NODES" || key == "NUMBER OF LINKS") {
      if (f.empty()) in.fail("<" + std::string(key) + "> has no value");
      (key == "NUMBER OF NODES" ? nodes : links) = parse_count(in, f[0], key);
    } else if (key == "FIRST THRU NODE" && !f.empty()) {
      first_thru = std::string(f[0]);
    }
  }
  if (!nodes || !links) in.fail("metadata lacks <NUMBER OF NODES> or <NUMBER OF LINKS>");
  if (*nodes > options.max_vertices)
    in.fail(std::to_string(*nodes) + " nodes exceed the limit of " +
            limit_text(options.max_vertices, options));
  // Shortest link row: "1 2 0 0 ;\n".
  check_claimed(in, *links, 10, "links", options.max_edges, options.limit_note);
  const uint64_t metadata_end = in.line_number();
  list.num_vertices = *nodes;
  list.edges.reserve(reservable(in, *links));
  if (!first_thru.empty()) list.source += ", first thru node " + first_thru;

  Columns columns;
  while (in.next(line)) {
    if (is_blank(line)) continue;
    const size_t first = line.find_first_not_of(" \t");
    if (line[first] == '~') {
      columns = parse_column_header(in, line.substr(first));
      continue;
    }
    split_fields(line, f);
    // A row cut short by truncation lacks its ';', which is why it is required.
    if (f.back() == ";")
      f.pop_back();
    else if (f.back().ends_with(';'))
      f.back().remove_suffix(1);
    else
      in.fail("link row does not end with ';'");
    if (f.size() < columns.needed())
      in.fail("link row has " + std::to_string(f.size()) + " fields, needs " +
              std::to_string(columns.needed()));
    if (list.edges.size() >= *links)
      in.fail("more than the " + std::to_string(*links) + " links declared in the metadata");
    const VertexId u = parse_vertex_1based(in, f[columns.init], *nodes);
    const VertexId v = parse_vertex_1based(in, f[columns.term], *nodes);
    list.edges.push_back({u, v, weights.read(in, f[columns.length], list.edges)});
  }
  if (list.edges.size() < *links)
    in.fail("truncated: " + std::to_string(list.edges.size()) + " of the " +
            std::to_string(*links) + " links declared before line " + std::to_string(metadata_end));
  weights.finish(list);
  return build_csr(std::move(list), options);
}

} // namespace tlmgpu::graph
