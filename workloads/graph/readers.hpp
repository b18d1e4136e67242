// Graph file readers and the single entry point that maps a command-line input
// spec (file path or `gen:` generator spec) to a CsrGraph. Formats, weight and
// direction conventions and the error contract are in workloads/graph/README.md.
//
// Every reader throws GraphFormatError, whose message is one line
// "<file>:<line>: <problem>", for any malformed input, and checks header
// counts against the file size and the options' limits before reserving
// memory. Every reader reads gzip, xz, bzip2 and zstd files transparently
// (recognised by their magic bytes) and maps weights by options.weights.
#pragma once

#include "workloads/graph/csr_graph.hpp"

#include <string>

namespace tlmgpu::graph {

// Matrix Market coordinate: pattern/real/integer, general/symmetric. Entry
// (i, j) is the arc i->j; `symmetric` files are mirrored and come back
// undirected. Values of any sign are read; options.weights maps them.
CsrGraph read_matrix_market(const std::string& path, const GraphBuildOptions& options);

// Edge list (SNAP, KONECT out.*, .edges, CSV/TSV): "src dst [weight [...]]"
// per line, '#' and '%' comments, whitespace or comma separated, an optional
// header row. Integer ids are compacted to the ones that occur (original_ids
// maps back) unless options.compact_snap_ids is false, in which case they are
// kept and n = max id + 1; if any id is a name, all are, numbered in
// first-seen order (vertex_names). Directed, except KONECT "% sym" files.
CsrGraph read_edge_list(const std::string& path, const GraphBuildOptions& options);

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
// Directed; weight = the `length` column (fractional lengths: fixed point by
// options.weights, never 0 for a positive length).
CsrGraph read_tntp(const std::string& path, const GraphBuildOptions& options);

// GML as networkx, igraph and Gephi export it: nodes with id and optional
// label, edges with source/target and optional weight (or value), `directed`
// flag (default 0: undirected, mirrored).
CsrGraph read_gml(const std::string& path, const GraphBuildOptions& options);

// The format of a file: by its extension after any compression suffix (.mtx;
// .txt/.el/.snap/.edges/.edgelist/.csv/.tsv/.konect and KONECT's out.*
// names: edge list; .graph METIS; .gr DIMACS; .tntp; .gml), else by its
// content (Matrix Market banner, TNTP metadata, DIMACS problem line, GML
// `graph [`), else an edge list. METIS is recognised by extension only.
GraphFormat detect_graph_format(const std::string& path);

// `spec` is either a generator spec starting with "gen:" (generators.hpp) or a
// file read by the reader of options.format, or of detect_graph_format() when
// that is automatic. Bad generator specs are a GraphSpecError.
CsrGraph load_graph(const std::string& spec, const GraphBuildOptions& options);

} // namespace tlmgpu::graph
