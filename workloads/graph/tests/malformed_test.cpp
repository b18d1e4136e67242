// Every malformed input must end in one GraphFormatError "<file>:<line>:
// <problem>" naming the right line, never a crash or a huge allocation (the
// 10^12 headers would need terabytes if anything trusted them).
#include "workloads/graph/readers.hpp"
#include "workloads/graph/tests/bad_case.hpp"
#include "workloads/graph/tests/temp_files.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu::graph;
using tlmgpu::test::BadCase;
using tlmgpu::test::check_rejected;
using tlmgpu::test::TempDir;

namespace {

const std::string kMtx = "%%MatrixMarket matrix coordinate pattern general\n";
const std::string kMeta = "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n<END OF METADATA>\n";

} // namespace

TEST_CASE("malformed Matrix Market files", "[graph][malformed]") {
  const BadCase cases[] = {
      {"empty.mtx", "", 1, "empty file"},
      {"banner.mtx", "3 3 1\n1 2\n", 1, "MatrixMarket"},
      {"array.mtx", "%%MatrixMarket matrix array real general\n", 1, "coordinate"},
      {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n", 1, "field"},
      {"skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n", 1, "symmetry"},
      {"nosize.mtx", kMtx + "% only comments\n", 2, "no 'rows cols nnz'"},
      {"badsize.mtx", kMtx + "3 3\n", 2, "size line"},
      {"negative.mtx", kMtx + "-3 -3 1\n1 2\n", 2, "negative row count"},
      {"nonsquare.mtx", kMtx + "3 4 1\n1 2\n", 2, "square"},
      {"huge_n.mtx", kMtx + "1000000000000 1000000000000 1\n1 2\n", 2, "exceed the limit"},
      {"huge_nnz.mtx", kMtx + "3 3 1000000000000\n1 2\n", 2, "header claims 1000000000000"},
      {"overflow.mtx", kMtx + "3 3 99999999999999999999999\n", 2, "out of range"},
      {"truncated.mtx", kMtx + "3 3 3\n1 2\n2 3\n", 4, "truncated: 2 of the 3"},
      {"more.mtx", kMtx + "3 3 1\n1 2\n2 3\n", 4, "more entries"},
      {"range.mtx", kMtx + "3 3 2\n1 2\n4 1\n", 4, "out of range 1..3"},
      {"zero.mtx", kMtx + "3 3 1\n0 1\n", 3, "out of range"},
      {"nan.mtx", kMtx + "3 3 1\n1 x2\n", 3, "expected vertex id, found 'x2'"},
      {"fields.mtx", kMtx + "3 3 1\n1 2 3\n", 3, "found 3 fields"},
      {"negw.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -0.5\n", 3,
       "negative weight"},
      {"intw.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n", 3,
       "expected an integer weight"},
      {"binary.mtx", kMtx + "3 3 1\n1 \x01\xff\n", 3, "\\x01\\xff"},
  };
  for (const BadCase& c : cases)
    check_rejected(c);
}

TEST_CASE("malformed SNAP edge lists", "[graph][malformed]") {
  const BadCase cases[] = {
      {"empty.txt", "", 1, "no edges"},
      {"comments.txt", "# a\n# b\n", 2, "no edges"},
      {"one.txt", "1 2\n3\n", 2, "expected 2 fields like line 1"},
      {"one_field.txt", "7\n", 1, "found 1 field"},
      {"more.txt", "1 2 3 4\n1 2 3\n", 2, "expected 4 fields like line 1, found 3"},
      {"float.txt", "1 2\n1 2.5\n", 2, "expected vertex id, found '2.5'"},
      {"negative.txt", "1 -2\n", 1, "negative vertex id"},
      {"negw.txt", "1 2 -3\n", 1, "negative weight"},
      {"bigw.txt", "1 2 4294967296\n", 1, "does not fit 32 bits"},
  };
  for (const BadCase& c : cases)
    check_rejected(c);

  // Without compaction a huge id would mean a huge vertex array.
  TempDir dir;
  GraphBuildOptions keep;
  keep.compact_snap_ids = false;
  CHECK_THROWS_WITH(read_edge_list(dir.write("big.txt", "0 1\n1 1000000000000\n"), keep),
                    Catch::Contains("big.txt:2: vertex id 1000000000000 exceeds the limit"));
  // With compaction the same file is a 3-vertex graph.
  CHECK(read_edge_list(dir.path("big.txt"), {}).num_vertices() == 3);
}

TEST_CASE("malformed METIS graphs", "[graph][malformed]") {
  const BadCase cases[] = {
      {"empty.graph", "", 1, "empty file"},
      {"comments.graph", "% x\n", 1, "empty file"},
      {"header.graph", "3\n", 1, "header must be"},
      {"negative.graph", "-3 1\n", 1, "negative vertex count"},
      {"nan.graph", "3 x\n", 1, "expected edge count"},
      {"fmt.graph", "2 1 012\n", 1, "fmt"},
      {"ncon.graph", "2 1 1 3\n", 1, "ncon given"},
      {"huge_m.graph", "3 1000000000000\n", 1, "header claims 1000000000000 edges"},
      {"huge_n.graph", "1000000000000 1\n2\n1\n", 1, "header claims 1000000000000 vertices"},
      {"truncated.graph", "3 2\n2\n1 3\n", 3, "truncated: 2 of the 3 vertex lines"},
      {"fewer.graph", "3 3\n2\n1 3\n2\n", 1, "lists hold 4 entries"},
      {"more.graph", "3 1\n2\n1 3\n2\n", 3, "more than the 2 x 1"},
      {"range.graph", "3 2\n2\n1 4\n2\n", 3, "out of range 1..3"},
      {"loop.graph", "2 1\n1 2\n1\n", 2, "self-loop"},
      {"asym.graph", "3 2\n2 3\n1\n2\n", 2, "not listed by vertex 3"},
      {"weight.graph", "2 1 1\n2 5\n1 6\n", 2, "same weight"},
      {"pair.graph", "2 1 1\n2\n1 6\n", 2, "without an edge weight"},
      {"vwgt.graph", "2 1 110\n2\n", 2, "size/weight fields"},
      {"extra.graph", "2 1\n2\n1\n1\n", 4, "data after the 2 vertex lines"},
      {"word.graph", "2 1\n2\nx\n", 3, "expected vertex id"},
  };
  for (const BadCase& c : cases)
    check_rejected(c);
}

TEST_CASE("malformed DIMACS .gr files", "[graph][malformed]") {
  const BadCase cases[] = {
      {"empty.gr", "", 1, "empty file"},
      {"noproblem.gr", "c only\n", 1, "no 'p sp n m'"},
      {"early.gr", "a 1 2 3\np sp 2 1\n", 1, "arc before"},
      {"twice.gr", "p sp 2 1\np sp 2 1\n", 2, "second problem line"},
      {"badp.gr", "p max 2 1\n", 1, "'p sp n m'"},
      {"kind.gr", "p sp 2 1\nx 1 2 3\n", 2, "unknown line type 'x'"},
      {"huge.gr", "p sp 2 1000000000000\n", 1, "header claims 1000000000000 arcs"},
      {"huge_n.gr", "p sp 1000000000000 1\na 1 2 3\n", 1, "exceed the limit"},
      {"negative.gr", "p sp -2 1\n", 1, "negative vertex count"},
      {"truncated.gr", "p sp 3 2\na 1 2 3\n", 2, "truncated: 1 of the 2 arcs"},
      {"more.gr", "p sp 3 1\na 1 2 3\na 2 3 1\n", 3, "more than the 1 arcs"},
      {"range.gr", "p sp 3 1\na 1 5 3\n", 2, "out of range 1..3"},
      {"negw.gr", "p sp 3 1\na 1 2 -3\n", 2, "negative weight"},
      {"short.gr", "p sp 3 1\na 1 2\n", 2, "'a u v w'"},
      {"float.gr", "p sp 3 1\na 1 2 2.5\n", 2, "expected an integer weight"},
  };
  for (const BadCase& c : cases)
    check_rejected(c);
}

TEST_CASE("malformed TNTP networks", "[graph][malformed]") {
  const BadCase cases[] = {
      {"empty.tntp", "", 1, "empty file"},
      {"nometa.tntp", "<NUMBER OF NODES> 3\n", 1, "no <END OF METADATA>"},
      {"meta.tntp", "NUMBER OF NODES 3\n", 1, "'<KEY> value'"},
      {"nolinks.tntp", "<NUMBER OF NODES> 3\n<END OF METADATA>\n", 2, "lacks"},
      {"negative.tntp", "<NUMBER OF NODES> -3\n", 1, "negative NUMBER OF NODES"},
      {"huge.tntp", "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 1000000000000\n<END OF METADATA>\n", 3,
       "header claims 1000000000000 links"},
      {"truncated.tntp", kMeta + "1 2 9 5 1 ;\n", 4, "truncated: 1 of the 2 links"},
      {"cut.tntp", kMeta + "1 2 9 5 1 ;\n2 3 9", 5, "does not end with ';'"},
      {"more.tntp", kMeta + "1 2 9 5 1 ;\n2 3 9 5 1 ;\n3 1 9 5 1 ;\n", 6, "more than the 2"},
      {"range.tntp", kMeta + "1 4 9 5 1 ;\n", 4, "out of range 1..3"},
      {"nan.tntp", kMeta + "1 2 9 five 1 ;\n", 4, "expected a weight"},
      {"negw.tntp", kMeta + "1 2 9 -5 1 ;\n", 4, "negative weight"},
      {"fields.tntp", kMeta + "1 2 ;\n", 4, "needs 4"},
      {"header.tntp", kMeta + "~ init_node term_node capacity ;\n", 4, "lacks"},
  };
  for (const BadCase& c : cases)
    check_rejected(c);
}

TEST_CASE("missing files, whatever the extension", "[graph][malformed]") {
  TempDir dir;
  for (const char* name :
       {"none.mtx", "none.txt", "none.graph", "none.gr", "none.tntp", "none.gml", "out.none"}) {
    const std::string path = dir.path(name);
    CHECK_THROWS_WITH(load_graph(path, {}), path + ": cannot open: No such file or directory");
  }
  CHECK_THROWS_AS(load_graph(dir.path("x.bin"), {}), GraphFormatError);
}

TEST_CASE("limits in GraphBuildOptions apply to every reader", "[graph][malformed]") {
  TempDir dir;
  GraphBuildOptions tight;
  tight.max_edges = 2;
  CHECK_THROWS_WITH(read_matrix_market(dir.write("a.mtx", kMtx + "3 3 3\n1 2\n2 3\n3 1\n"), tight),
                    Catch::Contains("above the limit of 2"));
  CHECK_THROWS_WITH(read_edge_list(dir.write("a.txt", "1 2\n2 3\n3 1\n"), tight),
                    Catch::Contains("a.txt:3: more than 2 edges"));
  tight = {};
  tight.max_vertices = 2;
  CHECK_THROWS_WITH(read_edge_list(dir.path("a.txt"), tight),
                    Catch::Contains("3 distinct vertex ids exceed the limit of 2"));
}
