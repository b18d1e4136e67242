// SNAP edge-list reader. SNAP files have no trustworthy header (the "# Nodes:"
// comment is informative only), so the vertex set is whatever ids occur. By
// default those ids are compacted to 0..k-1 in increasing order (so the
// relative order of vertices is the file's) and kept in original_ids, which
// result writers use to print the ids a user will compare against; see
// GraphBuildOptions::compact_snap_ids.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/text_input.hpp"

#include <algorithm>

namespace tlmgpu::graph {

using namespace detail;

namespace {

struct RawEdge {
  uint64_t src, dst;
  Weight weight;
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

} // namespace

CsrGraph read_snap(const std::string& path, const GraphBuildOptions& options) {
  check_limits(options);
  LineReader in(path);
  EdgeList list;
  describe(list, path, "SNAP edge list");

  std::vector<RawEdge> raw;
  std::vector<std::string_view> f;
  std::string_view line;
  size_t columns = 0; // fixed by the first edge line: 2, or 3 with weights
  uint64_t first_edge_line = 0;
  uint64_t max_id = 0;
  auto parse_id = [&](std::string_view token) {
    const uint64_t id = parse_count(in, token, "vertex id");
    if (!options.compact_snap_ids && id >= options.max_vertices)
      in.fail("vertex id " + std::to_string(id) + " exceeds the limit of " +
              std::to_string(options.max_vertices) + " vertices (ids are not compacted)");
    max_id = std::max(max_id, id);
    return id;
  };
  while (in.next(line)) {
    if (is_blank(line) || line[0] == '#') continue;
    split_fields(line, f);
    if (columns == 0) {
      if (f.size() != 2 && f.size() != 3)
        in.fail("expected 'src dst' or 'src dst weight', found " + std::to_string(f.size()) +
                " fields");
      columns = f.size();
      first_edge_line = in.line_number();
    } else if (f.size() != columns) {
      in.fail("expected " + std::to_string(columns) + " fields like line " +
              std::to_string(first_edge_line) + ", found " + std::to_string(f.size()));
    }
    if (raw.size() >= options.max_edges)
      in.fail("more than " + std::to_string(options.max_edges) + " edges");
    RawEdge e{parse_id(f[0]), parse_id(f[1]), 1};
    if (columns == 3) e.weight = parse_int_weight(in, f[2]);
    raw.push_back(e);
  }
  if (columns == 0) in.fail_at(std::max<uint64_t>(in.line_number(), 1), "no edges in file");
  list.weighted = columns == 3;
  if (options.compact_snap_ids) {
    compact(raw, list);
    // Two new ids per edge at most, but the limit may still be below that.
    if (list.num_vertices > options.max_vertices)
      in.fail(std::to_string(list.num_vertices) + " distinct vertex ids exceed the limit of " +
              std::to_string(options.max_vertices));
  } else {
    list.num_vertices = max_id + 1;
    list.edges.reserve(raw.size());
    for (const RawEdge& e : raw)
      list.edges.push_back({static_cast<VertexId>(e.src), static_cast<VertexId>(e.dst), e.weight});
  }
  raw = {};
  return build_csr(std::move(list), options);
}

} // namespace tlmgpu::graph
