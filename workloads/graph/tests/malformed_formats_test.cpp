// Malformed files of the formats issue 18 added (GML, CSV and named edge
// lists, KONECT, compressed input): each ends in one GraphFormatError
// "<file>:<line>: <problem>" naming the right line, as in malformed_test.cpp.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/tests/bad_case.hpp"
#include "workloads/graph/tests/temp_files.hpp"
#include "workloads/io/tests/compress.hpp"

#include "tlmgpu/memory_budget.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu::graph;
using tlmgpu::set_memory_budget;
using tlmgpu::io::Compression;
using tlmgpu::test::BadCase;
using tlmgpu::test::check_rejected;
using tlmgpu::test::compress;
using tlmgpu::test::TempDir;

namespace {

// The error loading `path` gives (a test failure if it loads).
GraphFormatError rejected(const std::string& path) {
  try {
    load_graph(path, {});
  } catch (const GraphFormatError& e) {
    return e;
  }
  FAIL("accepted " << path);
  throw;
}

} // namespace

TEST_CASE("malformed GML files", "[graph][malformed]") {
  const BadCase cases[] = {
      {"empty.gml", "", 1, "no 'graph [ ... ]'"},
      {"nograph.gml", "Creator \"x\"\nVersion 1\n", 2, "no 'graph [ ... ]'"},
      {"open.gml", "graph [\n node [ id 1 ]\n", 2, "'graph [' opened on line 1 is not closed"},
      {"opennode.gml", "graph [\n node [ id 1\n", 2, "'node [' opened on line 2 is not closed"},
      {"noid.gml", "graph [\nnode [ label \"a\" ]\n]\n", 2, "node without an id"},
      {"dup.gml", "graph [\nnode [ id 1 ]\nnode [ id 1 ]\n]\n", 3,
       "node id 1 already defined on line 2"},
      {"target.gml", "graph [\nnode [ id 1 ]\nedge [ source 1 target 2 ]\n]\n", 3,
       "edge target 2 is not the id of a node"},
      {"ends.gml", "graph [\nnode [ id 1 ]\nedge [ source 1 ]\n]\n", 3,
       "edge without a source and a target"},
      {"string.gml", "graph [\nnode [ id 1 label \"abc\n]\n]\n", 2, "unterminated string"},
      {"char.gml", "graph [ node [ id 1 ] ; ]\n", 1, "unexpected character ';'"},
      {"noval.gml", "graph [\nnode [ id 1 ]\nedge [ source 1 target 1 weight ]\n]\n", 3,
       "key 'weight' has no value"},
      {"negid.gml", "graph [ node [ id -1 ] ]\n", 1, "negative id"},
      {"strid.gml", "graph [\n node [ id \"a\" ]\n]\n", 2, "'id' must be an integer"},
      {"directed.gml", "graph [\ndirected 2\n]\n", 2, "directed must be 0 or 1"},
      {"nolist.gml", "graph 1\n", 1, "expected '[' after 'graph'"},
      {"two.gml", "graph [ ]\ngraph [ ]\n", 2, "a second 'graph'"},
      {"weight.gml", "graph [\nnode [ id 1 ]\nedge [ source 1 target 1\nweight 1e999 ]\n]\n", 4,
       "out of range"},
      {"close.gml", "]\n", 1, "expected a key, found ']'"},
  };
  for (const BadCase& c : cases)
    check_rejected(c);
}

TEST_CASE("malformed CSV, named and KONECT edge lists", "[graph][malformed]") {
  const BadCase cases[] = {
      {"quote.csv", "a,b\n\"c,d\n", 2, "unterminated quoted field"},
      {"after.csv", "\"a\"x,b\n", 1, "text after a quoted field"},
      {"emptyid.csv", "1,2\n1,\n", 2, "empty vertex id"},
      {"fields.csv", "source,target,weight\n1,2,3\n1,2\n", 3, "expected 3 fields like line 1"},
      {"weight.csv", "source,target,weight\n1,2,heavy\n", 2, "expected a weight, found 'heavy'"},
      {"names.txt", "TP53 MDM2\nMDM2\n", 2, "expected 2 fields like line 1, found 1"},
      {"namew.tsv", "TP53\tMDM2\t-0.5\n", 1, "negative weight '-0.5'"},
      {"out.bip", "% bip unweighted\n1 2\n", 2, "KONECT bipartite file without '% m n1 n2'"},
      {"out.bip2", "% bip unweighted\n% 3\n1 2\n", 2, "needs '% m n1 n2'"},
      {"header.csv", "from,to\n", 1, "no edges"},
  };
  for (const BadCase& c : cases)
    check_rejected(c);
}

TEST_CASE("damaged compressed files name the line being read", "[graph][malformed]") {
  TempDir dir;
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n2000 2000 4000\n";
  for (int i = 0; i < 4000; ++i)
    text += std::to_string(i % 2000 + 1) + " " + std::to_string(i * 7 % 2000 + 1) + "\n";
  for (Compression c :
       {Compression::gzip, Compression::xz, Compression::bzip2, Compression::zstd}) {
    const std::string packed = compress(c, text);
    const std::string path = dir.write("cut.mtx" + tlmgpu::test::compression_suffix(c),
                                       packed.substr(0, packed.size() / 2));
    INFO(path);
    const GraphFormatError e = rejected(path);
    CHECK(std::string(e.what()).rfind(path + ":" + std::to_string(e.line()) + ": ", 0) == 0);
    // bzip2 and zstd blocks decode whole, so the error may come at line 1.
    CHECK(e.line() >= 1);
    CHECK(e.line() < 4003);
    CHECK_THAT(e.problem(), Catch::Contains("decompression failed"));
  }
}

TEST_CASE("a header in a compressed file is checked before anything is reserved",
          "[graph][malformed]") {
  TempDir dir;
  // gzip: bounded by deflate's largest ratio.
  const std::string huge =
      "%%MatrixMarket matrix coordinate pattern general\n3 3 1000000000000\n1 2\n";
  const GraphFormatError gz = rejected(dir.write("huge.mtx.gz", compress(Compression::gzip, huge)));
  CHECK(gz.line() == 2);
  CHECK_THAT(gz.problem(), Catch::Contains("header claims 1000000000000 entries but a gzip file"));
  // xz: no ratio bound, so only the limit applies, and the reader grows its
  // arrays instead of reserving what the header says. The limit follows
  // from the memory budget (half the RAM by default): set one that allows
  // 10^9 arcs, so that the result does not depend on the machine.
  set_memory_budget(uint64_t{1} << 46);
  const std::string big = "%%MatrixMarket matrix coordinate pattern general\n3 3 1000000000\n1 2\n";
  const GraphFormatError xz = rejected(dir.write("big.mtx.xz", compress(Compression::xz, big)));
  CHECK(xz.line() == 3);
  CHECK_THAT(xz.problem(), Catch::Contains("truncated: 1 of the 1000000000 entries"));
  // With a budget below 10^9 x 40 bytes the header is refused at once,
  // naming the budget.
  set_memory_budget(uint64_t{1} << 30);
  const GraphFormatError capped = rejected(dir.path("big.mtx.xz"));
  CHECK(capped.line() == 2);
  CHECK_THAT(capped.problem(), Catch::Contains("above the limit of 26843545 (what --max-memory "
                                               "1.0 GiB holds at about 40 bytes per arc"));
  set_memory_budget(0); // the default again
}
