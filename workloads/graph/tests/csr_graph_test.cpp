#include "workloads/graph/csr_graph.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace tlmgpu::graph;

namespace {

// 0->1 (w5), 0->1 (w3, a parallel arc), 1->2, 2->2 (self-loop), 2->0.
EdgeList small_list() {
  EdgeList list;
  list.num_vertices = 4; // vertex 3 is isolated
  list.weighted = true;
  list.name = "small";
  list.source = "test";
  list.edges = {{0, 1, 5}, {2, 2, 7}, {1, 2, 1}, {0, 1, 3}, {2, 0, 2}};
  return list;
}

std::vector<VertexId> adj(const CsrGraph& g, VertexId v) {
  auto n = g.neighbors(v);
  return {n.begin(), n.end()};
}

} // namespace

TEST_CASE("build_csr keeps the stored arcs by default", "[graph][csr]") {
  const CsrGraph g = build_csr(small_list(), GraphBuildOptions::as_stored());
  g.validate();
  CHECK(g.directed);
  CHECK(g.num_vertices() == 4);
  CHECK(g.num_edges() == 5);
  CHECK(g.count_self_loops() == 1);
  CHECK(adj(g, 0) == std::vector<VertexId>{1, 1});
  CHECK(g.neighbor_weights(0)[0] == 3); // sorted by weight within a target
  CHECK(g.degree(3) == 0);
  CHECK(g.neighbors_sorted());
  CHECK(g.row_offsets == std::vector<EdgeOffset>{0, 2, 3, 5, 5});
}

TEST_CASE("build_csr options: self-loops, duplicates, symmetrize", "[graph][csr]") {
  GraphBuildOptions o;
  o.remove_self_loops = true;
  CHECK(build_csr(small_list(), o).num_edges() == 4);

  o = {};
  o.remove_duplicate_edges = true;
  const CsrGraph dedup = build_csr(small_list(), o);
  CHECK(dedup.num_edges() == 4);
  CHECK(dedup.neighbor_weights(0)[0] == 3); // the minimum weight survives

  o = {};
  o.symmetrize = true;
  const CsrGraph sym = build_csr(small_list(), o);
  CHECK_FALSE(sym.directed);
  CHECK(sym.num_edges() == 9); // 4 non-loop arcs doubled, the loop once
  sym.validate();

  const CsrGraph simple = build_csr(small_list(), GraphBuildOptions::simple_undirected());
  simple.validate();
  CHECK(simple.num_edges() == 6); // {0,1}, {1,2}, {0,2} both ways
  CHECK(adj(simple, 0) == std::vector<VertexId>{1, 2});
  CHECK(simple.neighbor_weights(0)[0] == 3);
  CHECK(simple.count_self_loops() == 0);
}

TEST_CASE("build_csr enforces the limits before allocating", "[graph][csr]") {
  GraphBuildOptions o;
  o.max_edges = 4;
  CHECK_THROWS_AS(build_csr(small_list(), o), GraphFormatError);
  o = {};
  o.max_vertices = 3;
  CHECK_THROWS_AS(build_csr(small_list(), o), GraphFormatError);
  o = {};
  o.symmetrize = true;
  o.max_edges = 8; // 5 arcs fit, 9 after symmetrizing do not
  CHECK_THROWS_WITH(build_csr(small_list(), o), Catch::Contains("symmetrizing"));
  o = {};
  o.max_edges = kMaxEdges + 1;
  CHECK_THROWS_AS(build_csr(small_list(), o), std::invalid_argument);
  EdgeList bad = small_list();
  bad.edges.push_back({0, 9, 1});
  CHECK_THROWS_AS(build_csr(bad, {}), std::invalid_argument);
}

TEST_CASE("sort_neighbors moves weights with their targets", "[graph][csr]") {
  CsrGraph g;
  g.row_offsets = {0, 3, 3};
  g.col_indices = {1, 0, 1};
  g.weights = {9, 4, 2};
  CHECK_FALSE(g.neighbors_sorted());
  g.sort_neighbors();
  CHECK(g.col_indices == std::vector<VertexId>{0, 1, 1});
  CHECK(g.weights == std::vector<Weight>{4, 2, 9});
  g.validate();
}

TEST_CASE("validate names the broken invariant", "[graph][csr]") {
  CsrGraph g = build_csr(small_list(), GraphBuildOptions::simple_undirected());
  g.validate();

  CsrGraph bad = g;
  bad.col_indices[0] = 99;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("targets vertex 99"));

  bad = g;
  bad.row_offsets.back() += 1;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("row_offsets end"));

  bad = g;
  std::swap(bad.row_offsets[1], bad.row_offsets[2]);
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("decrease"));

  bad = g;
  bad.weights.pop_back();
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("weights"));

  bad = g;
  bad.weights[0] += 1; // 0->1 no longer matches 1->0
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("reverse of arc"));

  bad = g;
  bad.original_ids = {1, 2};
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("original_ids"));
}

TEST_CASE("GraphFormatError message is file:line: problem on one line", "[graph][csr]") {
  const GraphFormatError e("a.mtx", 7, "bad thing");
  CHECK(std::string(e.what()) == "a.mtx:7: bad thing");
  CHECK(e.line() == 7);
  CHECK(std::string(GraphFormatError("a.mtx", 0, "missing").what()) == "a.mtx: missing");
}
