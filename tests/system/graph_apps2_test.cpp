// System tests of clr, mis and bc (workloads/graph_apps/): each checked by its
// CPU checker on karate, as20graph and an R-MAT graph, on titanv and tiny in
// lt mode and on karate in at mode; each checker shown to fail on a corrupted
// result; bc's exact karate centralities compared with published values.
// Each TEST_CASE is its own process (CTest).
#include "graph_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

const std::string kRmat = "gen:rmat?scale=10&ef=8&seed=1";

void check_graph(const std::string& workload, const std::string& input, const std::string& platform,
                 TimingMode mode) {
  RunResult r = check_graph_run(workload, platform, mode, {{"input", input}});
  CHECK(r.stats["kernels"].size() >= 2);
  // Every one of these kernels pushes with device-scope commutative atomics.
  CHECK(sum_stat(r.stats["total"], "order_commutative") > 0);
}

} // namespace

#define GRAPH2_CASES(W)                                                                            \
  TEST_CASE(W " passes its CPU check on karate: titanv lt") {                                      \
    check_graph(W, data("karate.mtx"), "titanv", TimingMode::LT);                                  \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on karate: tiny lt") {                                        \
    check_graph(W, data("karate.mtx"), "tiny", TimingMode::LT);                                    \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on as20graph: titanv lt") {                                   \
    check_graph(W, data("as20graph.txt"), "titanv", TimingMode::LT);                               \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on as20graph: tiny lt") {                                     \
    check_graph(W, data("as20graph.txt"), "tiny", TimingMode::LT);                                 \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on rmat: titanv lt") {                                        \
    check_graph(W, kRmat, "titanv", TimingMode::LT);                                               \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on rmat: tiny lt") {                                          \
    check_graph(W, kRmat, "tiny", TimingMode::LT);                                                 \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on karate: tx1 lt") {                                         \
    check_graph(W, data("karate.mtx"), "tx1", TimingMode::LT);                                     \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on as20graph: tx1 lt") {                                      \
    check_graph(W, data("as20graph.txt"), "tx1", TimingMode::LT);                                  \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on rmat: tx1 lt") {                                           \
    check_graph(W, kRmat, "tx1", TimingMode::LT);                                                  \
  }                                                                                                \
  TEST_CASE(W " passes its CPU check on karate: titanv at") {                                      \
    check_graph(W, data("karate.mtx"), "titanv", TimingMode::AT);                                  \
  }                                                                                                \
  TEST_CASE(W " check catches a corrupted result") {                                               \
    check_corrupt_fails(W);                                                                        \
  }

GRAPH2_CASES("clr")
GRAPH2_CASES("mis")
GRAPH2_CASES("bc")

TEST_CASE("mis passes its CPU check on as20graph: titanv at") {
  check_graph("mis", data("as20graph.txt"), "titanv", TimingMode::AT);
}

TEST_CASE("bc hitting max_iters fails its check") {
  RunResult r =
      run("tiny", "bc", TimingMode::LT, {{"input", data("karate.mtx")}, {"max_iters", "1"}});
  INFO(r.summary);
  CHECK(r.rc == 1);
}

// Exact betweenness (every vertex a source) of Zachary's karate club against
// the published values (networkx betweenness_centrality(normalized=False):
// 231.0714 for vertex 0 and 160.5516 for vertex 33, halved for undirected
// pairs; bc.txt is not halved). Also checks the result file's format.
TEST_CASE("bc with every source reproduces the published karate centralities") {
  RunOptions o;
  o.platform_path = platform_path("tiny");
  o.platform = load_platform(o.platform_path, {});
  o.workload = "bc";
  o.args = {{"input", data("karate.mtx")}, {"sources", "0"}};
  o.timing = TimingMode::LT;
  o.out_dir =
      (std::filesystem::temp_directory_path() / ("tlmgpu_bctest_" + std::to_string(::getpid())))
          .string();
  std::ostringstream out;
  REQUIRE(run_simulation(o, out) == 0);
  std::ifstream f(std::filesystem::path(o.out_dir) / "bc.txt");
  std::map<uint64_t, double> bc;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    uint64_t v = 0;
    double x = 0;
    REQUIRE(bool(s >> v >> x));
    bc[v] = x;
  }
  std::filesystem::remove_all(o.out_dir);
  CHECK(bc.size() == 34);
  CHECK(bc[0] / 2 == Approx(231.0714).epsilon(1e-5));
  CHECK(bc[33] / 2 == Approx(160.5516).epsilon(1e-5));
}
