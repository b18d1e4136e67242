// DIMACS 9th Implementation Challenge (shortest paths) .gr reader: 'c'
// comment lines, one "p sp n m" problem line before any arc, then m lines
// "a u v w" with 1-based ids and non-negative integer weights.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/text_input.hpp"
#include "workloads/graph/weight_reader.hpp"

#include <algorithm>

namespace tlmgpu::graph {

using namespace detail;

CsrGraph read_dimacs_gr(const std::string& path, const GraphBuildOptions& options) {
  check_limits(options);
  LineReader in(path);
  EdgeList list;
  describe(list, in, "DIMACS .gr");
  WeightReader weights(options.weights);
  list.weighted = weights.keeps();

  std::vector<std::string_view> f;
  std::string_view line;
  bool have_problem = false;
  uint64_t n = 0, m = 0, problem_line = 0;
  while (in.next(line)) {
    split_fields(line, f);
    if (f.empty() || f[0] == "c") continue;
    if (f[0] == "p") {
      if (have_problem)
        in.fail("second problem line (first on line " + std::to_string(problem_line) + ")");
      if (f.size() != 4 || f[1] != "sp") in.fail("problem line must be 'p sp n m'");
      n = parse_count(in, f[2], "vertex count");
      m = parse_count(in, f[3], "arc count");
      if (n > options.max_vertices)
        in.fail(std::to_string(n) + " vertices exceed the limit of " +
                limit_text(options.max_vertices, options));
      // Shortest arc line: "a 1 1 0\n".
      check_claimed(in, m, 8, "arcs", options.max_edges, options.limit_note);
      have_problem = true;
      problem_line = in.line_number();
      list.num_vertices = n;
      list.edges.reserve(reservable(in, m));
    } else if (f[0] == "a") {
      if (!have_problem) in.fail("arc before the 'p sp n m' problem line");
      if (f.size() != 4) in.fail("arc line must be 'a u v w'");
      if (list.edges.size() >= m)
        in.fail("more than the " + std::to_string(m) + " arcs declared on line " +
                std::to_string(problem_line));
      const VertexId u = parse_vertex_1based(in, f[1], n), v = parse_vertex_1based(in, f[2], n);
      list.edges.push_back({u, v, weights.read(in, f[3], list.edges, true)});
    } else {
      in.fail("unknown line type " + quote(f[0]) + " (expected c, p or a)");
    }
  }
  const uint64_t last = std::max<uint64_t>(in.line_number(), 1);
  if (!have_problem)
    in.fail_at(last, in.line_number() == 0 ? "empty file" : "no 'p sp n m' problem line");
  if (list.edges.size() < m)
    in.fail_at(last, "truncated: " + std::to_string(list.edges.size()) + " of the " +
                         std::to_string(m) + " arcs declared on line " +
                         std::to_string(problem_line));
  weights.finish(list);
  return build_csr(std::move(list), options);
}

} // namespace tlmgpu::graph
