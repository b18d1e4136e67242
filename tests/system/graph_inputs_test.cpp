// System tests of issue 18 ("inputs as distributed", "workload defaults that
// work"): the graph workloads on inputs as a new user brings them (GML,
// named edge lists, a stiffness matrix with negative values, fractional road
// lengths) and with their default arguments (PageRank on a tiny graph, the
// default source on R-MAT). Each TEST_CASE is its own process (CTest).
#include "graph_test_helpers.hpp"

#include "workloads/graph/tests/temp_files.hpp"
#include "workloads/io/tests/compress.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

struct Output {
  int rc = -1;
  std::string summary;
  std::vector<std::string> header;                           // the '#' lines
  std::vector<std::pair<std::string, std::string>> vertices; // "vertex value"
};

// Runs `workload` on tiny (functional) and reads its result file back.
Output run_and_read(const std::string& workload, std::map<std::string, std::string> args) {
  RunOptions o;
  o.platform_path = platform_path("tiny");
  o.platform = load_platform(o.platform_path, {});
  o.workload = workload;
  o.args = std::move(args);
  o.timing = TimingMode::Functional;
  o.out_dir =
      (std::filesystem::temp_directory_path() / ("tlmgpu_inputs_" + std::to_string(::getpid())))
          .string();
  std::ostringstream out;
  Output r;
  r.rc = run_simulation(o, out);
  r.summary = out.str();
  std::ifstream f(std::filesystem::path(o.out_dir) / (workload + ".txt"));
  for (std::string line; std::getline(f, line);) {
    if (line.starts_with("#")) {
      r.header.push_back(line);
      continue;
    }
    const size_t space = line.rfind(' ');
    REQUIRE(space != std::string::npos);
    r.vertices.emplace_back(line.substr(0, space), line.substr(space + 1));
  }
  std::filesystem::remove_all(o.out_dir);
  return r;
}

size_t reached(const Output& r) {
  size_t n = 0;
  for (const auto& [vertex, value] : r.vertices)
    n += value != "inf";
  return n;
}

} // namespace

TEST_CASE("pagerank passes on a 3-vertex graph and says how many rounds it ran") {
  // Was: the default max_iters (n + 1 = 4) stopped it below iterations=10,
  // while the header still claimed 10 rounds.
  TempDir dir;
  const Output r = run_and_read("pagerank", {{"input", dir.write("tri.txt", "0 1\n1 2\n2 0\n")}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  CHECK(r.vertices.size() == 3);
  REQUIRE(r.header.size() >= 2);
  CHECK(r.header[1] == "# vertex rank (after 10 rounds, damping 0.85)");
}

TEST_CASE("pagerank refuses max_iters below its iterations before simulating") {
  CHECK_THROWS_WITH(run("tiny", "pagerank", TimingMode::Functional,
                        {{"input", data("karate.mtx")}, {"iterations", "10"}, {"max_iters", "4"}}),
                    Catch::Contains("max_iters=4 is below iterations=10"));
}

TEST_CASE("bfs: the default source on an R-MAT graph reaches most vertices") {
  // Vertex 0 of this graph has no out-arcs (it reaches only itself); the
  // default is the vertex with the most out-arcs, printed in the summary.
  const Output r = run_and_read("bfs", {{"input", "gen:rmat?scale=10&ef=8&seed=1"}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  REQUIRE(r.vertices.size() == 1024);
  CHECK(reached(r) > 1024 / 2);
  CHECK_THAT(r.summary, Catch::Contains("(auto: most out-arcs, "));
}

TEST_CASE("sssp: the default source on a weighted R-MAT graph reaches most vertices") {
  const Output r = run_and_read("sssp", {{"input", "gen:rmat?scale=10&ef=8&seed=2&wmax=9"}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  CHECK(reached(r) > r.vertices.size() / 2);
  CHECK_THAT(r.summary, Catch::Contains("(auto: most out-arcs, "));
}

TEST_CASE("bc prints its default sources, which have edges") {
  RunResult r =
      check_graph_run("bc", "tiny", TimingMode::LT, {{"input", "gen:rmat?scale=8&ef=4&seed=1"}});
  CHECK_THAT(r.summary, Catch::Contains(", 4 sources ("));
}

TEST_CASE("sssp on lesmis.gml: value weights, names in the result file") {
  const Output r = run_and_read("sssp", {{"input", data("lesmis.gml")}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  REQUIRE(r.vertices.size() == 77);
  CHECK(r.vertices[0].first == "Myriel");
  CHECK(r.vertices[11] == std::pair<std::string, std::string>{"Valjean", "0"}); // the hub
  CHECK(r.header[2] == "# vertex: the file's vertex name");
  CHECK(reached(r) == 77);
}

TEST_CASE("a stiffness matrix with negative values runs in bfs") {
  TempDir dir;
  const Output r = run_and_read(
      "bfs",
      {{"input", dir.write("stiff.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                                        "3 3 5\n1 1 4.0\n2 1 -1.5\n2 2 4.0\n3 2 -1\n3 3 4\n")}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  CHECK(reached(r) == 3);
}

TEST_CASE("sssp refuses negative weights by default, naming the policies that take them") {
  TempDir dir;
  CHECK_THROWS_WITH(run("tiny", "sssp", TimingMode::Functional,
                        {{"input", dir.write("neg.txt", "1 2 -1.5\n2 3 2\n")}}),
                    Catch::Contains("neg.txt:1: negative weight '-1.5'") &&
                        Catch::Contains("weights=abs or weights=unit"));
}

TEST_CASE("sssp with weights=abs on negative weights") {
  TempDir dir;
  const Output r = run_and_read(
      "sssp", {{"input", dir.write("neg.txt", "1 2 -1.5\n2 3 2\n")}, {"weights", "abs"}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  CHECK_THAT(r.summary, Catch::Contains("1 negative weights made positive"));
  CHECK(r.vertices ==
        std::vector<std::pair<std::string, std::string>>{{"1", "0"}, {"2", "1500"}, {"3", "3500"}});
}

TEST_CASE("sssp on a road network in miles: no positive length becomes 0") {
  // Was: lengths rounded to integers, half of them to 0, and SSSP answered
  // distance 0 for most of the network.
  TempDir dir;
  std::string tntp = "<NUMBER OF NODES> 40\n<NUMBER OF LINKS> 39\n<END OF METADATA>\n"
                     "~ init_node term_node capacity length ;\n";
  for (int v = 1; v < 40; ++v)
    tntp += std::to_string(v) + " " + std::to_string(v + 1) + " 900 0." + std::to_string(v % 5) +
            "7 ;\n";
  const Output r =
      run_and_read("sssp", {{"input", dir.write("miles.tntp", tntp)}, {"source", "0"}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  CHECK_THAT(r.summary, Catch::Contains("weights = file values x 1000"));
  REQUIRE(r.vertices.size() == 40);
  CHECK(r.vertices[1].second == "170"); // 0.17 miles
  for (size_t v = 1; v < r.vertices.size(); ++v)
    CHECK(r.vertices[v].second != "0");
}

TEST_CASE("bfs on a gzipped named edge list writes the names back") {
  TempDir dir;
  const std::string genes = "# gene network\ngeneA\tgeneB\t0.5\ngeneB\tgeneC\t-1\n";
  const Output r = run_and_read(
      "bfs", {{"input", dir.write("genes.tsv.gz", compress(io::Compression::gzip, genes))}});
  INFO(r.summary);
  CHECK(r.rc == 0);
  CHECK(r.vertices == std::vector<std::pair<std::string, std::string>>{
                          {"geneA", "0"}, {"geneB", "1"}, {"geneC", "2"}});
}
