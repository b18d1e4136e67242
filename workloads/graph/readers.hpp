// Graph file readers and the single entry point that maps a command-line input
// spec (file path or `gen:` generator spec) to a CsrGraph. Formats, weight and
// direction conventions and the error contract are in workloads/graph/README.md.
//
// Every reader throws GraphFormatError, whose message is one line
// "<file>:<line>: <problem>", for any malformed input, and checks header
// counts against the file size and the options' limits before reserving
// memory.
#pragma once

#include "workloads/graph/csr_graph.hpp"

#include <string>

namespace tlmgpu::graph {

// Matrix Market coordinate: pattern/real/integer, general/symmetric. Entry
// (i, j) is the arc i->j; `symmetric` files are mirrored and come back
// undirected. Real values are rounded to integer weights.
CsrGraph read_matrix_market(const std::string& path, const GraphBuildOptions& options);

// SNAP edge list: "src dst" or "src dst weight" per line, '#' comments, tab or
// space separated. Ids are compacted to the ones that occur (original_ids maps
// back) unless options.compact_snap_ids is false, in which case they are kept
// and n = max id + 1. Directed unless options.symmetrize.
CsrGraph read_snap(const std::string& path, const GraphBuildOptions& options);

// METIS / DIMACS10 .graph: header "n m [fmt [ncon]]", one 1-based adjacency
// line per vertex, '%' comments. Vertex sizes and weights are parsed and
// dropped; edge weights (fmt xx1) are kept. Undirected; the reader checks that
// every edge is listed from both ends with the same weight.
CsrGraph read_metis(const std::string& path, const GraphBuildOptions& options);

// DIMACS 9th challenge shortest-path .gr: "p sp n m", "a u v w", 'c' comments.
// Directed, weighted.
CsrGraph read_dimacs_gr(const std::string& path, const GraphBuildOptions& options);

// TNTP network (TransportationNetworks): "<KEY> value" metadata up to
// "<END OF METADATA>", an optional '~' column header, link rows ending in ';'.
// Directed; weight = the `length` column rounded to an integer.
CsrGraph read_tntp(const std::string& path, const GraphBuildOptions& options);

// `spec` is either a generator spec starting with "gen:" (generators.hpp) or a
// file path whose extension picks the reader: .mtx, .txt/.el/.snap (SNAP),
// .graph (METIS), .gr (DIMACS), .tntp. Unknown extensions are a
// GraphFormatError; bad generator specs a GraphSpecError.
CsrGraph load_graph(const std::string& spec, const GraphBuildOptions& options);

} // namespace tlmgpu::graph
