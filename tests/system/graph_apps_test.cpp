// System tests of the graph workloads (workloads/graph_apps/): every kernel
// against its CPU reference on real inputs (karate, as20graph) and an R-MAT
// graph, on titanv and tiny in lt mode (as20graph also on tx1), some in at mode; every checker
// shown to fail on a corrupted result. Each TEST_CASE is its own process (CTest).
#include "graph_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

// Weighted, so that sssp relaxes real weights; vertex 3 reaches 686 vertices
// (vertex 0 has no out-arcs in this directed graph).
const std::string kRmat = "gen:rmat?scale=10&ef=8&seed=1&wmax=16";

void check_graph(const std::string& workload, const std::string& input, const std::string& platform,
                 TimingMode mode) {
  std::map<std::string, std::string> args{{"input", input}};
  if (input == kRmat && (workload == "bfs" || workload == "sssp")) args["source"] = "3";
  check_graph_run(workload, platform, mode, args);
}

} // namespace

#define GRAPH_CASES(W)                                                                             \
  TEST_CASE(W " matches the CPU on karate: titanv lt") {                                           \
    check_graph(W, data("karate.mtx"), "titanv", TimingMode::LT);                                  \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on karate: tiny lt") {                                             \
    check_graph(W, data("karate.mtx"), "tiny", TimingMode::LT);                                    \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on as20graph: titanv lt") {                                        \
    check_graph(W, data("as20graph.txt"), "titanv", TimingMode::LT);                               \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on as20graph: tiny lt") {                                          \
    check_graph(W, data("as20graph.txt"), "tiny", TimingMode::LT);                                 \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on rmat: titanv lt") {                                             \
    check_graph(W, kRmat, "titanv", TimingMode::LT);                                               \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on rmat: tiny lt") {                                               \
    check_graph(W, kRmat, "tiny", TimingMode::LT);                                                 \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on karate: tx1 lt") {                                              \
    check_graph(W, data("karate.mtx"), "tx1", TimingMode::LT);                                     \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on rmat: tx1 lt") {                                                \
    check_graph(W, kRmat, "tx1", TimingMode::LT);                                                  \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on as20graph: tx1 lt") {                                           \
    check_graph(W, data("as20graph.txt"), "tx1", TimingMode::LT);                                  \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on karate: tiny at") {                                             \
    check_graph(W, data("karate.mtx"), "tiny", TimingMode::AT);                                    \
  }                                                                                                \
  TEST_CASE(W " matches the CPU on as20graph: titanv at") {                                        \
    check_graph(W, data("as20graph.txt"), "titanv", TimingMode::AT);                               \
  }                                                                                                \
  TEST_CASE(W " check catches a corrupted result") {                                               \
    check_corrupt_fails(W);                                                                        \
  }

GRAPH_CASES("bfs")
GRAPH_CASES("sssp")
GRAPH_CASES("pagerank")
GRAPH_CASES("cca")

TEST_CASE("sssp matches Dijkstra on a weighted road network (Anaheim)") {
  check_graph("sssp", data("Anaheim_net.tntp"), "tiny", TimingMode::LT);
}

TEST_CASE("a graph workload that hits max_iters fails its check") {
  RunResult r =
      run("tiny", "bfs", TimingMode::LT, {{"input", data("karate.mtx")}, {"max_iters", "1"}});
  INFO(r.summary);
  CHECK(r.rc == 1);
}

TEST_CASE("a bad graph input is a ConfigError before simulation") {
  CHECK_THROWS_AS(run("tiny", "bfs", TimingMode::LT, {{"input", data("no_such_graph.mtx")}}),
                  ConfigError);
  CHECK_THROWS_AS(run("tiny", "cca", TimingMode::LT, {{"input", "gen:rmat?scale=x"}}), ConfigError);
}

TEST_CASE("bfs writes its result file in the documented format") {
  RunOptions o;
  o.platform_path = platform_path("tiny");
  o.platform = load_platform(o.platform_path, {});
  o.workload = "bfs";
  o.args = {{"input", data("as20graph.txt")}, {"source", "0"}};
  o.timing = TimingMode::LT;
  o.out_dir =
      (std::filesystem::temp_directory_path() / ("tlmgpu_gtest_" + std::to_string(::getpid())))
          .string();
  std::ostringstream out;
  REQUIRE(run_simulation(o, out) == 0);
  std::ifstream f(std::filesystem::path(o.out_dir) / "bfs.txt");
  std::string line;
  uint64_t rows = 0, first_id = 0, first_depth = 99;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    uint64_t id = 0;
    std::string depth;
    REQUIRE(bool(s >> id >> depth));
    if (rows++ == 0) first_id = id, first_depth = std::stoull(depth);
  }
  std::filesystem::remove_all(o.out_dir);
  CHECK(rows == 6474);  // one line per vertex
  CHECK(first_id == 1); // SNAP ids are written back, not the compacted index
  CHECK(first_depth == 0);
}
