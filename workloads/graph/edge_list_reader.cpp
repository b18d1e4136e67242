// Edge-list reader for the text edge lists graphs are distributed as: SNAP
// (`#` comments, tabs), KONECT `out.*` (`%` comments, first line "% sym|asym|
// bip <weights>", second "% m n1 n2"), Network Repository `.edges`, and
// CSV/TSV exports with an optional header line. A row is "src dst [weight
// [more...]]"; columns after the weight (KONECT timestamps) are ignored.
//
// Vertex ids: integer ids are compacted to 0..k-1 in increasing order and
// kept in original_ids (GraphBuildOptions::compact_snap_ids); SNAP's "#
// Nodes:" comment is informative only, so the vertex set is the ids that
// occur. If any id is not a number (gene or protein names), every id is a
// name: the file is read again in name mode, vertices numbered in first-seen
// order, and the names kept in vertex_names for the result files.
#include "workloads/graph/edge_list_fields.hpp"
#include "workloads/graph/readers.hpp"
#include "workloads/graph/weight_reader.hpp"

#include <algorithm>
#include <unordered_map>

namespace tlmgpu::graph {

using namespace detail;

namespace {

struct RawEdge {
  uint64_t src, dst;
  Weight weight;
};

// Thrown by the numeric pass when it meets a name: read again in name mode.
struct NamesFound {};

class VertexIds {
public:
  VertexIds(const LineReader& in, const GraphBuildOptions& options, bool names)
      : in_(in), options_(options), names_(names) {}

  uint64_t get(std::string_view token) {
    if (names_) return by_name(token);
    // A number that is no id ("-2", "1.5") is malformed, not a name;
    // "9606.ENSP0001" (a STRING protein) is a name.
    if (!is_number(token)) throw NamesFound{};
    const uint64_t id = parse_count(in_, token, "vertex id");
    if (!options_.compact_snap_ids && id >= options_.max_vertices)
      in_.fail("vertex id " + std::to_string(id) + " exceeds the limit of " +
               limit_text(options_.max_vertices, options_) + " vertices (ids are not compacted)");
    max_id_ = std::max(max_id_, id);
    return id;
  }
  std::vector<std::string> take_names() { return std::move(names_seen_); }
  uint64_t max_id() const { return max_id_; }

private:
  uint64_t by_name(std::string_view token) {
    const auto [it, added] = index_.try_emplace(std::string(token), names_seen_.size());
    if (added) {
      if (names_seen_.size() >= options_.max_vertices)
        in_.fail("more than " + limit_text(options_.max_vertices, options_) +
                 " distinct vertex names");
      names_seen_.emplace_back(token);
    }
    return it->second;
  }

  const LineReader& in_;
  const GraphBuildOptions& options_;
  bool names_;
  uint64_t max_id_ = 0;
  std::unordered_map<std::string, uint64_t> index_;
  std::vector<std::string> names_seen_;
};

void compact(const std::vector<RawEdge>& raw, EdgeList& list) {
  std::vector<uint64_t>& ids = list.original_ids;
  ids.reserve(2 * raw.size());
  for (const RawEdge& e : raw) {
    ids.push_back(e.src);
    ids.push_back(e.dst);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  ids.shrink_to_fit();
  auto index = [&](uint64_t id) {
    return static_cast<VertexId>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  list.num_vertices = ids.size();
  list.edges.reserve(raw.size());
  for (const RawEdge& e : raw)
    list.edges.push_back({index(e.src), index(e.dst), e.weight});
}

EdgeList read_pass(const std::string& path, const GraphBuildOptions& options, bool names) {
  LineReader in(path);
  EdgeList list;
  describe(list, in, "edge list");
  WeightReader weights(options.weights);
  VertexIds ids(in, options, names);
  KonectHeader konect;
  RowLayout layout;
  std::vector<RawEdge> raw;
  std::vector<std::string_view> f;
  std::string_view line;
  while (in.next(line)) {
    const std::string_view text = trim(line);
    if (text.empty()) continue;
    if (text[0] == '#' || text[0] == '%') {
      konect.note(in, text);
      continue;
    }
    if (layout.columns == 0) {
      if (konect.bipartite && konect.left == 0)
        in.fail("KONECT bipartite file without '% m n1 n2' on line 2");
      layout = RowLayout::from_first_row(in, text);
      if (layout.header) continue;
    }
    layout.split(in, text, f);
    if (raw.size() >= options.max_edges)
      in.fail("more than " + limit_text(options.max_edges, options) + " edges");
    RawEdge e{ids.get(f[0]), ids.get(f[1]), 1};
    if (konect.bipartite && !names) e.dst += konect.left;
    if (layout.weight_column < f.size()) e.weight = weights.read(in, f[layout.weight_column], raw);
    raw.push_back(e);
  }
  if (raw.empty()) in.fail_at(std::max<uint64_t>(in.line_number(), 1), "no edges in file");
  if (konect.symmetric) { // KONECT lists each undirected edge once
    list.undirected = true;
    const size_t stored = raw.size();
    for (size_t i = 0; i < stored; ++i)
      if (raw[i].src != raw[i].dst) raw.push_back({raw[i].dst, raw[i].src, raw[i].weight});
  }
  list.weighted = layout.weight_column != RowLayout::kNone && weights.keeps();
  if (names) {
    list.vertex_names = ids.take_names();
    list.num_vertices = list.vertex_names.size();
    list.edges.reserve(raw.size());
    for (const RawEdge& e : raw)
      list.edges.push_back({static_cast<VertexId>(e.src), static_cast<VertexId>(e.dst), e.weight});
  } else if (options.compact_snap_ids) {
    compact(raw, list);
    // Two new ids per edge at most, but the limit may still be below that.
    if (list.num_vertices > options.max_vertices)
      in.fail(std::to_string(list.num_vertices) + " distinct vertex ids exceed the limit of " +
              limit_text(options.max_vertices, options));
  } else {
    list.num_vertices = ids.max_id() + 1;
    list.edges.reserve(raw.size());
    for (const RawEdge& e : raw)
      list.edges.push_back({static_cast<VertexId>(e.src), static_cast<VertexId>(e.dst), e.weight});
  }
  weights.finish(list);
  return list;
}

} // namespace

CsrGraph read_edge_list(const std::string& path, const GraphBuildOptions& options) {
  check_limits(options);
  EdgeList list;
  try {
    list = read_pass(path, options, false);
  } catch (const NamesFound&) {
    list = read_pass(path, options, true);
  }
  return build_csr(std::move(list), options);
}

} // namespace tlmgpu::graph
