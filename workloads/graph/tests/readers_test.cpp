// Readers on the real samples in ../shared/data (facts from SOURCES.md) and on
// small well-formed hand-written files. Malformed inputs: malformed_test.cpp.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/tests/temp_files.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace tlmgpu::graph;
using tlmgpu::test::shared_data;
using tlmgpu::test::TempDir;

namespace {

bool has_arc(const CsrGraph& g, VertexId u, VertexId v) {
  const auto adj = g.neighbors(u);
  return std::find(adj.begin(), adj.end(), v) != adj.end();
}

Weight arc_weight(const CsrGraph& g, VertexId u, VertexId v) {
  const auto adj = g.neighbors(u);
  return g.neighbor_weights(u)[std::find(adj.begin(), adj.end(), v) - adj.begin()];
}

} // namespace

TEST_CASE("karate.mtx: 34 vertices, 78 edges mirrored to 156 arcs", "[graph][readers]") {
  const CsrGraph g = load_graph(shared_data("karate.mtx"), {});
  g.validate();
  CHECK(g.num_vertices() == 34);
  CHECK(g.num_edges() == 156);
  CHECK_FALSE(g.directed);
  CHECK_FALSE(g.has_weights());
  CHECK(g.count_self_loops() == 0);
  CHECK(g.degree(0) == 16);
  CHECK(g.degree(33) == 17);
  CHECK(has_arc(g, 1, 0));
  CHECK(has_arc(g, 0, 1));
  CHECK(g.name == "karate");
}

TEST_CASE("as20graph.txt: 6474 ASes, 12572 edges both ways, 1323 self-loops", "[graph][readers]") {
  const CsrGraph g = load_graph(shared_data("as20graph.txt"), {});
  g.validate();
  CHECK(g.num_vertices() == 6474);
  CHECK(g.num_edges() == 2 * 12572 + 1323);
  CHECK(g.count_self_loops() == 1323);
  CHECK(g.directed); // SNAP files carry no direction information
  REQUIRE(g.original_ids.size() == 6474);
  CHECK(g.original_ids.front() == 1);
  CHECK(g.original_ids.back() == 65105);

  GraphBuildOptions no_loops;
  no_loops.remove_self_loops = true;
  CHECK(load_graph(shared_data("as20graph.txt"), no_loops).num_edges() == 25144);

  // Both directions are stored, so making it simple and undirected adds nothing.
  const CsrGraph simple =
      load_graph(shared_data("as20graph.txt"), GraphBuildOptions::simple_undirected());
  simple.validate();
  CHECK(simple.num_edges() == 25144);
  CHECK_FALSE(simple.directed);

  GraphBuildOptions keep_ids;
  keep_ids.compact_snap_ids = false;
  const CsrGraph sparse = load_graph(shared_data("as20graph.txt"), keep_ids);
  CHECK(sparse.num_vertices() == 65106);
  CHECK(sparse.num_edges() == 26467);
  CHECK(sparse.original_ids.empty());
}

TEST_CASE("adjnoun.graph: 112 vertices, 425 edges", "[graph][readers]") {
  const CsrGraph g = load_graph(shared_data("adjnoun.graph"), {});
  g.validate();
  CHECK(g.num_vertices() == 112);
  CHECK(g.num_edges() == 850);
  CHECK_FALSE(g.directed);
  CHECK(g.degree(0) == 3); // line "2 3 4"
}

TEST_CASE("Anaheim_net.tntp: 416 nodes, 914 links weighted by length", "[graph][readers]") {
  const CsrGraph g = load_graph(shared_data("Anaheim_net.tntp"), {});
  g.validate();
  CHECK(g.num_vertices() == 416);
  CHECK(g.num_edges() == 914);
  CHECK(g.directed);
  REQUIRE(g.has_weights());
  CHECK(arc_weight(g, 0, 116) == 5280); // "1 117 9000 5280 ..."
  CHECK(arc_weight(g, 415, 406) == 5280);
  CHECK(g.source.find("first thru node 39") != std::string::npos);
}

TEST_CASE("hand-written Matrix Market files", "[graph][readers]") {
  TempDir dir;
  const CsrGraph general =
      read_matrix_market(dir.write("g.mtx", "%%MatrixMarket matrix coordinate integer general\n"
                                            "% comment\n\n3 3 3\n1 2 7\r\n2 3 4\n3 3 1\n"),
                         {});
  general.validate();
  CHECK(general.directed);
  CHECK(general.num_edges() == 3);
  CHECK(arc_weight(general, 0, 1) == 7);
  CHECK(general.count_self_loops() == 1);

  const CsrGraph sym =
      read_matrix_market(dir.write("s.mtx", "%%matrixmarket MATRIX Coordinate real symmetric\n"
                                            "3 3 3\n2 1 1.6\n3 1 2.4e0\n3 3 5\n"),
                         {});
  sym.validate();
  CHECK_FALSE(sym.directed);
  CHECK(sym.num_edges() == 5); // two mirrored entries, the diagonal once
  // Fractional values: fixed point x1000 by default (weights=auto), the
  // integral 5 on the diagonal too.
  CHECK(sym.weight_scale == 1000);
  CHECK(arc_weight(sym, 0, 1) == 1600);
  CHECK(arc_weight(sym, 1, 0) == 1600);
  CHECK(arc_weight(sym, 0, 2) == 2400);
  CHECK(arc_weight(sym, 2, 2) == 5000);
  GraphBuildOptions round;
  round.weights = WeightPolicy::parse("scale:1");
  const CsrGraph rounded = read_matrix_market(dir.path("s.mtx"), round);
  CHECK(arc_weight(rounded, 0, 1) == 2); // 1.6 rounds to 2
  CHECK(arc_weight(rounded, 0, 2) == 2);
}

TEST_CASE("hand-written SNAP files", "[graph][readers]") {
  TempDir dir;
  const CsrGraph g =
      read_edge_list(dir.write("a.txt", "# comment\n10 20\n20\t10\n\n10  30\n30 30\n"), {});
  g.validate();
  CHECK(g.num_vertices() == 3);
  CHECK(g.original_ids == std::vector<uint64_t>{10, 20, 30});
  CHECK(g.num_edges() == 4);
  CHECK(has_arc(g, 0, 2));

  const CsrGraph w = read_edge_list(dir.write("w.el", "0 1 5\n1 2 6\n"), {});
  CHECK(w.has_weights());
  CHECK(arc_weight(w, 1, 2) == 6);
  CHECK(load_graph(dir.write("x.snap", "0 1\n"), {}).num_edges() == 1);
}

TEST_CASE("hand-written METIS files", "[graph][readers]") {
  TempDir dir;
  // Vertex 4 is isolated (empty line); fmt 011 with one vertex weight.
  const CsrGraph g =
      read_metis(dir.write("w.graph", "% comment\n4 2 011\n5 2 1 3 2\n6 1 1\n7 1 2\n8\n"), {});
  g.validate();
  CHECK(g.num_vertices() == 4);
  CHECK(g.num_edges() == 4);
  CHECK(arc_weight(g, 0, 2) == 2);
  CHECK(g.degree(3) == 0);

  const CsrGraph sized = read_metis(dir.write("s.graph", "2 1 111 2\n1 9 9 2 4\n1 8 8 1 4\n"), {});
  CHECK(sized.num_edges() == 2);
  CHECK(arc_weight(sized, 1, 0) == 4);
  CHECK(read_metis(dir.write("p.graph", "3 2\n2\n1 3\n2\n"), {}).num_edges() == 4);
}

TEST_CASE("hand-written DIMACS .gr file", "[graph][readers]") {
  TempDir dir;
  const CsrGraph g = read_dimacs_gr(
      dir.write("a.gr", "c 9th DIMACS\np sp 3 3\nc arcs\na 1 2 10\na 2 3 0\na 3 1 4\n"), {});
  g.validate();
  CHECK(g.directed);
  CHECK(g.num_edges() == 3);
  CHECK(arc_weight(g, 0, 1) == 10);
  CHECK(arc_weight(g, 1, 2) == 0);
}

TEST_CASE("hand-written TNTP files", "[graph][readers]") {
  TempDir dir;
  const std::string meta = "<NUMBER OF ZONES> 1\n<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n"
                           "<END OF METADATA>\n\n";
  // Columns reordered: the '~' header decides where length is.
  const CsrGraph g = read_tntp(dir.write("a.tntp", meta + "~ term_node init_node length ;\n"
                                                          "\t2\t1\t7.4\t;\n 3 2 2.5;\n"),
                               {});
  g.validate();
  CHECK(g.num_edges() == 2);
  CHECK(g.weight_scale == 1000); // fractional lengths: fixed point
  CHECK(arc_weight(g, 0, 1) == 7400);
  CHECK(arc_weight(g, 1, 2) == 2500);
  GraphBuildOptions round;
  round.weights = WeightPolicy::parse("scale:1");
  CHECK(arc_weight(read_tntp(dir.path("a.tntp"), round), 1, 2) == 2); // 2.5 rounds to even
  // No header: the standard column order, length fourth.
  const CsrGraph d = read_tntp(dir.write("b.tntp", meta + "1 2 100 9 1 ;\n2 3 100 8 1 ;\n"), {});
  CHECK(arc_weight(d, 1, 2) == 8);
}

TEST_CASE("load_graph dispatches on the extension", "[graph][readers]") {
  TempDir dir;
  CHECK(load_graph(dir.write("A.MTX", "%%MatrixMarket matrix coordinate pattern general\n"
                                      "2 2 1\n1 2\n"),
                   {})
            .num_edges() == 1);
  CHECK(load_graph(dir.write("a.csv", "1,2\n"), {}).num_edges() == 1);
  CHECK(load_graph("gen:grid?w=2&h=2", {}).num_edges() == 8);
}
