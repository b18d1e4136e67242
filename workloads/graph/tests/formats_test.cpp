// Inputs as they are distributed (issue 18): every reader on plain and
// compressed copies of a small sample, CRLF line ends and comments in the
// middle of a file, the format taken from the content when the name does not
// say, edge lists with named vertices, CSV, KONECT and GML.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/tests/temp_files.hpp"
#include "workloads/io/tests/compress.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

using namespace tlmgpu::graph;
using tlmgpu::io::Compression;
using tlmgpu::test::compress;
using tlmgpu::test::shared_data;
using tlmgpu::test::TempDir;

namespace {

Weight arc_weight(const CsrGraph& g, VertexId u, VertexId v) {
  const auto adj = g.neighbors(u);
  const auto it = std::find(adj.begin(), adj.end(), v);
  REQUIRE(it != adj.end());
  return g.neighbor_weights(u)[it - adj.begin()];
}

// The same directed weighted 4-cycle 1->2->3->4->1 (weights 5, 6, 7, 8) in
// every format, with a comment in the middle where the format has comments.
struct Sample {
  const char* file;
  GraphFormat format;
  std::string text;
};

const Sample kSamples[] = {
    {"s.mtx", GraphFormat::matrix_market,
     "%%MatrixMarket matrix coordinate integer general\n% c\n4 4 4\n1 2 5\n2 3 6\n% mid\n"
     "3 4 7\n4 1 8\n"},
    {"s.txt", GraphFormat::edge_list, "# c\n1 2 5\n2 3 6\n# mid\n3 4 7\n4 1 8\n"},
    {"s.gr", GraphFormat::dimacs, "c x\np sp 4 4\na 1 2 5\na 2 3 6\nc mid\na 3 4 7\na 4 1 8\n"},
    {"s.tntp", GraphFormat::tntp,
     "<NUMBER OF NODES> 4\n<NUMBER OF LINKS> 4\n<END OF METADATA>\n"
     "~ init_node term_node capacity length ;\n1 2 0 5 ;\n2 3 0 6 ;\n3 4 0 7 ;\n4 1 0 8 ;\n"},
    {"s.gml", GraphFormat::gml,
     "graph [ directed 1\n node [ id 1 ] node [ id 2 ] node [ id 3 ] node [ id 4 ]\n"
     " edge [ source 1 target 2 weight 5 ]\n # mid\n edge [ source 2 target 3 weight 6 ]\n"
     " edge [ source 3 target 4 weight 7 ] edge [ source 4 target 1 weight 8 ] ]\n"},
};

void check_cycle(const CsrGraph& g) {
  g.validate();
  REQUIRE(g.num_vertices() == 4);
  CHECK(g.num_edges() == 4);
  CHECK(g.directed);
  CHECK(arc_weight(g, 0, 1) == 5);
  CHECK(arc_weight(g, 1, 2) == 6);
  CHECK(arc_weight(g, 3, 0) == 8);
}

std::string crlf(const std::string& text) {
  return std::regex_replace(text, std::regex("\n"), "\r\n");
}

} // namespace

TEST_CASE("every reader reads plain, gzip, xz, bzip2 and zstd files", "[graph][formats]") {
  TempDir dir;
  for (const Sample& s : kSamples)
    for (Compression c : tlmgpu::test::kAllCompressions)
      for (bool windows : {false, true}) {
        const std::string name = s.file + tlmgpu::test::compression_suffix(c);
        INFO(name << (windows ? " with CRLF" : ""));
        const std::string path = dir.write(name, compress(c, windows ? crlf(s.text) : s.text));
        CHECK(detect_graph_format(path) == s.format);
        check_cycle(load_graph(path, {}));
      }
  // METIS: undirected, so its own check.
  const std::string metis = "% c\n3 2 001\n2 4\n% mid\n1 4 3 9\n2 9\n";
  for (Compression c : tlmgpu::test::kAllCompressions) {
    const CsrGraph g = load_graph(
        dir.write("m.graph" + tlmgpu::test::compression_suffix(c), compress(c, crlf(metis))), {});
    CHECK(g.num_edges() == 4);
    CHECK(arc_weight(g, 2, 1) == 9);
  }
}

TEST_CASE("the format comes from the content when the name does not say", "[graph][formats]") {
  TempDir dir;
  for (const Sample& s : kSamples) {
    if (s.format == GraphFormat::edge_list) continue;
    INFO(s.file);
    // No extension at all, and a misleading compressed one.
    const std::string path = dir.write("download", s.text);
    CHECK(detect_graph_format(path) == s.format);
    check_cycle(load_graph(path, {}));
    CHECK(detect_graph_format(dir.write("x.dat.gz", compress(Compression::gzip, s.text))) ==
          s.format);
  }
  // Anything else is an edge list; METIS only by extension or format=.
  CHECK(detect_graph_format(dir.write("plain", "1 2\n")) == GraphFormat::edge_list);
  const std::string metis = dir.write("adj.dat", "2 1\n2\n1\n");
  GraphBuildOptions as_metis;
  as_metis.format = GraphFormat::metis;
  CHECK(load_graph(metis, as_metis).num_edges() == 2);
  CHECK_FALSE(load_graph(metis, as_metis).directed);
  // format= wins over the extension.
  GraphBuildOptions as_edges;
  as_edges.format = GraphFormat::edge_list;
  CHECK(load_graph(dir.write("edges.mtx", "1 2\n2 3\n"), as_edges).num_edges() == 2);
  // The real samples by content too, compressed.
  CHECK(detect_graph_format(
            dir.write("lm", compress(Compression::bzip2, "Creator \"x\"\ngraph\n[\n]\n"))) ==
        GraphFormat::gml);
}

TEST_CASE("edge lists: .edges, .el, CSV, TSV, KONECT, extra columns", "[graph][formats]") {
  TempDir dir;
  // Network Repository .edges: '%' comment header, comma separated.
  const CsrGraph nr = load_graph(dir.write("web.edges", "% 3 3\n1,2\n2,3\n3,1\n"), {});
  CHECK(nr.num_edges() == 3);
  CHECK(nr.original_ids == std::vector<uint64_t>{1, 2, 3});
  CHECK(load_graph(dir.write("g.el", "0 1\n1 2\n"), {}).num_edges() == 2);
  // CSV with a header (pandas, Gephi): the weight is the column named so.
  const CsrGraph csv = load_graph(
      dir.write("e.csv", "Source,Target,Type,Weight\r\n1,2,Directed,3\r\n2,1,Directed,4\r\n"), {});
  CHECK(csv.has_weights());
  CHECK(arc_weight(csv, 1, 0) == 4);
  // TSV with a header and no weight column: unweighted.
  const CsrGraph tsv = load_graph(dir.write("e.tsv", "from\tto\tsign\n1\t2\t+\n2\t3\t-\n"), {});
  CHECK_FALSE(tsv.has_weights());
  CHECK(tsv.num_edges() == 2);
  // KONECT: "% sym" lists each undirected edge once; a fourth column (time) is ignored.
  const CsrGraph sym =
      load_graph(dir.write("out.club", "% sym positive\n% 2 3 3\n1 2 1 100\n2 3 2 200\n"), {});
  sym.validate();
  CHECK_FALSE(sym.directed);
  CHECK(sym.num_edges() == 4);
  CHECK(arc_weight(sym, 2, 1) == 2);
  // KONECT bipartite: the right side is moved past the n1 left vertices.
  const CsrGraph bip =
      load_graph(dir.write("out.bip", "% bip unweighted\n% 3 2 2\n1 1\n2 1\n2 2\n"), {});
  CHECK(bip.num_vertices() == 4);
  CHECK(bip.original_ids == std::vector<uint64_t>{1, 2, 3, 4});
}

TEST_CASE("edge lists with named vertices: first-seen order, names kept", "[graph][formats]") {
  TempDir dir;
  // STRING-style header, names, fractional scores.
  const CsrGraph g = load_graph(dir.write("links.txt", "protein1 protein2 combined_score\n"
                                                       "9606.ENSP1 9606.ENSP2 0.9\n"
                                                       "# mid-file comment\n"
                                                       "9606.ENSP3 9606.ENSP1 0.15\n"),
                                {});
  g.validate();
  CHECK(g.vertex_names == std::vector<std::string>{"9606.ENSP1", "9606.ENSP2", "9606.ENSP3"});
  CHECK(g.original_ids.empty());
  CHECK(arc_weight(g, 0, 1) == 900);
  CHECK(arc_weight(g, 2, 0) == 150);
  // Numbers first, a name later: every id is a name, in first-seen order.
  const CsrGraph mixed = load_graph(dir.write("mixed.txt", "10 2\n2 TP53\n"), {});
  CHECK(mixed.vertex_names == std::vector<std::string>{"10", "2", "TP53"});
  CHECK(mixed.num_edges() == 2);
  // CSV names with quotes and commas.
  const CsrGraph q =
      load_graph(dir.write("q.csv", "\"Valjean, Jean\",Javert\nJavert,Myriel\n"), {});
  CHECK(q.vertex_names == std::vector<std::string>{"Valjean, Jean", "Javert", "Myriel"});
}

TEST_CASE("GML: directed and undirected, labels, ids, weight or value", "[graph][formats]") {
  TempDir dir;
  // networkx write_gml: directed, labels, weight.
  const CsrGraph d = load_graph(dir.write("nx.gml", "graph [\n  directed 1\n  node [\n    id 0\n"
                                                    "    label \"a\"\n  ]\n  node [\n    id 1\n"
                                                    "    label \"b c\"\n  ]\n  edge [\n"
                                                    "    source 0\n    target 1\n    weight 2.5\n"
                                                    "  ]\n]\n"),
                                {});
  d.validate();
  CHECK(d.directed);
  CHECK(d.num_edges() == 1);
  CHECK(d.vertex_names == std::vector<std::string>{"a", "b c"});
  CHECK(arc_weight(d, 0, 1) == 2500);
  // igraph: Creator line, undirected by default, ids not 0..n-1, no labels,
  // nested graphics lists skipped, an edge without weight.
  const CsrGraph u = load_graph(
      dir.write("ig.gml",
                "Creator \"igraph version 0.10\"\nVersion 1\ngraph\n[\n"
                "  node [ id 10 graphics [ x 1.0 y -2 ] ]\n  node [ id 20 ]\n"
                "  node [ id 30 ]\n  edge [ source 10 target 20 value 3 ]\n"
                "  edge [ source 20 target 30 ]\n  edge [ source 30 target 30 value 1 ]\n]\n"),
      {});
  u.validate();
  CHECK_FALSE(u.directed);
  CHECK(u.num_edges() == 5); // two edges mirrored, the self-loop once
  CHECK(u.original_ids == std::vector<uint64_t>{10, 20, 30});
  CHECK(u.vertex_names.empty());
  CHECK(arc_weight(u, 1, 0) == 3);
  CHECK(arc_weight(u, 2, 1) == 1);
  // weight wins over value, in either order; a string may span lines.
  const CsrGraph w = load_graph(
      dir.write("w.gml", "graph [ node [ id 0 label \"x\ny\" ] node [ id 1 label \"z\" ]\n"
                         "edge [ source 0 target 1 value 9 weight 4 ]\n"
                         "edge [ source 1 target 1 weight 6 value 9 ] ]\n"),
      {});
  CHECK(arc_weight(w, 0, 1) == 4);
  CHECK(arc_weight(w, 1, 1) == 6);
  CHECK(w.vertex_names[0] == "x\ny");
}

TEST_CASE("lesmis.gml: 77 characters, 254 weighted co-appearances", "[graph][formats]") {
  const CsrGraph g = load_graph(shared_data("lesmis.gml"), {});
  g.validate();
  CHECK(g.num_vertices() == 77);
  CHECK(g.num_edges() == 2 * 254);
  CHECK_FALSE(g.directed);
  REQUIRE(g.vertex_names.size() == 77);
  CHECK(g.vertex_names[0] == "Myriel");
  CHECK(g.vertex_names[11] == "Valjean");
  CHECK(g.degree(11) == 36);
  CHECK(arc_weight(g, 11, 0) == 5); // "source 11 target 0 value 5"
  CHECK(arc_weight(g, 0, 11) == 5);
  CHECK(g.source == shared_data("lesmis.gml") + " (GML)");
}
