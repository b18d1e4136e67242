// Matrix Market coordinate reader (NIST "The Matrix Market Exchange Formats",
// Boisvert et al. 1996): banner, '%' comments, "rows cols nnz", then nnz
// 1-based entries.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/text_input.hpp"
#include "workloads/graph/weight_reader.hpp"

#include <algorithm>
#include <cctype>

namespace tlmgpu::graph {

using namespace detail;

namespace {

// The banner is case-insensitive per the format description.
std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

struct Banner {
  bool has_values = false; // real or integer rather than pattern
  bool real = false;
  bool symmetric = false;
};

Banner parse_banner(const LineReader& in, std::string_view line) {
  std::vector<std::string_view> f;
  split_fields(line, f);
  if (f.empty() || lower(f[0]) != "%%matrixmarket")
    in.fail("expected a '%%MatrixMarket' banner, found " + quote(line));
  if (f.size() != 5) in.fail("banner needs 'matrix coordinate <field> <symmetry>'");
  if (lower(f[1]) != "matrix") in.fail("unsupported object " + quote(f[1]));
  if (lower(f[2]) != "coordinate")
    in.fail("only the coordinate format is supported, found " + quote(f[2]));
  Banner b;
  const std::string field = lower(f[3]), symmetry = lower(f[4]);
  if (field == "real" || field == "double") {
    b.has_values = b.real = true;
  } else if (field == "integer") {
    b.has_values = true;
  } else if (field != "pattern") {
    in.fail("unsupported field " + quote(f[3]) + " (pattern, real or integer)");
  }
  if (symmetry == "symmetric")
    b.symmetric = true;
  else if (symmetry != "general")
    in.fail("unsupported symmetry " + quote(f[4]) + " (general or symmetric)");
  return b;
}

} // namespace

CsrGraph read_matrix_market(const std::string& path, const GraphBuildOptions& options) {
  check_limits(options);
  LineReader in(path);
  std::string_view line;
  if (!in.next(line)) in.fail_at(1, "empty file, expected a '%%MatrixMarket' banner");
  const Banner banner = parse_banner(in, line);

  std::vector<std::string_view> f;
  for (;;) {
    if (!in.next(line)) in.fail("truncated: no 'rows cols nnz' size line");
    if (!line.empty() && line[0] == '%') continue;
    if (!is_blank(line)) break;
  }
  split_fields(line, f);
  if (f.size() != 3) in.fail("size line must be 'rows cols nnz', found " + quote(line));
  const uint64_t rows = parse_count(in, f[0], "row count");
  const uint64_t cols = parse_count(in, f[1], "column count");
  const uint64_t nnz = parse_count(in, f[2], "entry count");
  if (rows != cols)
    in.fail("matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
            "; an adjacency matrix must be square");
  if (rows > options.max_vertices)
    in.fail(std::to_string(rows) + " vertices exceed the limit of " +
            limit_text(options.max_vertices, options));
  // Shortest entry: "1 1\n".
  check_claimed(in, nnz, 4, "entries", options.max_edges, options.limit_note);
  const uint64_t size_line = in.line_number();

  EdgeList list;
  describe(list, in, "Matrix Market");
  WeightReader weights(options.weights);
  list.num_vertices = rows;
  list.weighted = banner.has_values && weights.keeps();
  list.undirected = banner.symmetric;
  list.edges.reserve(reservable(in, nnz));
  const size_t fields = banner.has_values ? 3 : 2;
  uint64_t entries = 0;
  while (in.next(line)) {
    if (is_blank(line) || line[0] == '%') continue;
    split_fields(line, f);
    if (f.size() != fields)
      in.fail("expected " + std::string(fields == 3 ? "'row col value'" : "'row col'") +
              ", found " + std::to_string(f.size()) + " fields");
    if (++entries > nnz)
      in.fail("more entries than the " + std::to_string(nnz) + " declared on line " +
              std::to_string(size_line));
    Edge e;
    e.src = parse_vertex_1based(in, f[0], rows);
    e.dst = parse_vertex_1based(in, f[1], rows);
    // Values of any sign are read: a stiffness matrix is still a graph for
    // kernels that ignore weights; the policy decides what SSSP gets.
    if (banner.has_values) e.weight = weights.read(in, f[2], list.edges, !banner.real);
    list.edges.push_back(e);
    // A symmetric file stores one triangle; the diagonal is not mirrored.
    if (banner.symmetric && e.src != e.dst) list.edges.push_back({e.dst, e.src, e.weight});
  }
  if (entries < nnz)
    in.fail("truncated: " + std::to_string(entries) + " of the " + std::to_string(nnz) +
            " entries declared on line " + std::to_string(size_line));
  weights.finish(list);
  return build_csr(std::move(list), options);
}

} // namespace tlmgpu::graph
