// Seeded synthetic graphs, bit-identical on every platform and standard
// library: randomness comes only from std::mt19937_64 (whose output sequence
// the C++ standard fixes) through the helpers below, never through the
// std:: distributions, whose algorithms are implementation-defined.
//
// On the command line a generator is named by a spec
//   gen:<name>?<param>=<value>&<param>=<value>...
// whose parameters, defaults and meanings are declared once, in the table in
// generators.cpp; generator_help() prints that table.
#pragma once

#include "workloads/graph/csr_graph.hpp"

#include <random>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tlmgpu::graph {

// A malformed or out-of-limit generator spec; the message names the spec and
// the offending generator or parameter.
class GraphSpecError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

class DeterministicRng {
public:
  explicit DeterministicRng(uint64_t seed) : engine_(seed) {}
  uint64_t next() { return engine_(); }
  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, bound), unbiased by rejecting the short top range; bound > 0.
  uint64_t below(uint64_t bound);

private:
  std::mt19937_64 engine_;
};

// R-MAT / Kronecker as in the Graph500 reference generator: per bit of each
// endpoint a quadrant is drawn with probabilities a, b, c, 1-a-b-c; vertex ids
// are then optionally permuted so that degree does not follow the id.
// Produces edge_factor * 2^scale arcs (self-loops and duplicates included,
// as in Graph500; the build options remove them).
struct RmatParams {
  unsigned scale;
  uint64_t edge_factor;
  double a, b, c;
  bool permute;
  uint64_t seed;
  Weight max_weight; // 0: unweighted; otherwise weights uniform in 1..max_weight
};
CsrGraph generate_rmat(const RmatParams& p, const GraphBuildOptions& options);

// m arcs with both endpoints uniform in [0, n) (Erdos-Renyi G(n, m) style, with
// repetition). Directed unless options.symmetrize.
CsrGraph generate_uniform(uint64_t n, uint64_t m, uint64_t seed, Weight max_weight,
                          const GraphBuildOptions& options);

// w x h grid, 4-neighbour, vertex id = y * w + x, undirected (both arcs stored,
// equal weights). Interior degree 4, edge 3, corner 2.
CsrGraph generate_grid(uint64_t w, uint64_t h, uint64_t seed, Weight max_weight,
                       const GraphBuildOptions& options);

// Barabasi-Albert preferential attachment: a (k+1)-clique, then each new vertex
// links to k distinct earlier vertices chosen with probability proportional to
// degree. Undirected; k(k+1)/2 + (n-k-1)k edges.
CsrGraph generate_ba(uint64_t n, uint64_t k, uint64_t seed, Weight max_weight,
                     const GraphBuildOptions& options);

// Parses a "gen:..." spec and runs the generator. Throws GraphSpecError for an
// unknown generator or parameter, a missing required parameter, a value that
// is not a number or out of range, or a graph above the options' limits.
CsrGraph generate_from_spec(std::string_view spec, const GraphBuildOptions& options);

// One line per generator and parameter: name, default, meaning.
std::string generator_help();

} // namespace tlmgpu::graph
