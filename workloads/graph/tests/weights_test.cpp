// Weight policies (input_options.hpp): negative and fractional file values
// under every `weights=` policy, in every reader that reads real values, and
// the rule that a positive value never becomes weight 0.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/tests/temp_files.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace tlmgpu::graph;
using tlmgpu::test::shared_data;
using tlmgpu::test::TempDir;

namespace {

std::vector<Weight> weights_of(const CsrGraph& g) {
  return g.weights;
}

GraphBuildOptions with(const std::string& policy) {
  GraphBuildOptions o;
  o.weights = policy == "ignore" ? WeightPolicy{WeightMode::ignore} : WeightPolicy::parse(policy);
  return o;
}

// The arcs 1->2, 2->3, 3->1 with the weights -2, 0.25 and 3, in the formats
// that read real values. Sorted CSR order is the arc order.
struct MixedSample {
  const char* file;
  std::string text;
  uint64_t negative_line; // where -2 is
};

const MixedSample kMixed[] = {
    {"m.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 -2\n2 3 0.25\n3 1 3\n", 3},
    {"m.txt", "1 2 -2\n2 3 0.25\n3 1 3\n", 1},
    {"m.tntp",
     "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 3\n<END OF METADATA>\n"
     "~ init_node term_node length ;\n1 2 -2 ;\n2 3 0.25 ;\n3 1 3 ;\n",
     5},
    {"m.gml",
     "graph [ directed 1 node [ id 1 ] node [ id 2 ] node [ id 3 ]\n"
     "edge [ source 1 target 2 weight -2 ]\nedge [ source 2 target 3 weight 0.25 ]\n"
     "edge [ source 3 target 1 weight 3 ] ]\n",
     2},
};

void check_error(const std::string& path, const GraphBuildOptions& o, uint64_t line,
                 const std::string& problem) {
  try {
    load_graph(path, o);
    FAIL("accepted");
  } catch (const GraphFormatError& e) {
    INFO(e.what());
    CHECK(e.line() == line);
    CHECK_THAT(e.problem(), Catch::Contains(problem));
  }
}

} // namespace

TEST_CASE("negative and fractional weights under every policy", "[graph][weights]") {
  TempDir dir;
  for (const MixedSample& s : kMixed) {
    INFO(s.file);
    const std::string path = dir.write(s.file, s.text);
    // auto (the default) and scale: a negative value is an error naming the policies that take it.
    check_error(path, {}, s.negative_line, "negative weight '-2' (weights=auto; weights=abs");
    check_error(path, with("scale:10"), s.negative_line, "negative weight '-2' (weights=scale:10");
    check_error(path, with("reject"), s.negative_line, "negative weight '-2' (weights=reject)");
    // abs: |x|, then as auto: the 0.25 makes every weight fixed point x1000.
    const CsrGraph a = load_graph(path, with("abs"));
    CHECK(weights_of(a) == std::vector<Weight>{2000, 250, 3000});
    CHECK(a.weight_scale == 1000);
    CHECK(a.negated_weights == 1);
    // unit and ignore: numbers of any sign, dropped.
    for (const char* p : {"unit", "ignore"}) {
      const CsrGraph u = load_graph(path, with(p));
      CHECK_FALSE(u.has_weights());
      CHECK(u.num_edges() == 3);
    }
  }
}

TEST_CASE("fractional weights: auto fixed point, reject, scale rounding", "[graph][weights]") {
  TempDir dir;
  // 0.0004 x 1000 rounds to 0 but is a positive length: stored as 1, counted.
  const std::string path = dir.write("f.txt", "1 2 7\n2 3 0.0004\n3 1 1.5\n3 2 0\n");
  const CsrGraph g = load_graph(path, {});
  CHECK(g.weight_scale == 1000);
  CHECK(weights_of(g) == std::vector<Weight>{7000, 1, 1500, 0}); // a zero stays zero
  CHECK(g.raised_weights == 1);
  check_error(path, with("reject"), 2, "fractional weight '0.0004' (weights=reject)");
  const CsrGraph s = load_graph(path, with("scale:2"));
  CHECK(s.weight_scale == 2);
  CHECK(weights_of(s) == std::vector<Weight>{14, 1, 3, 0});
  CHECK(s.raised_weights == 1);
  // Integers only: auto keeps them exactly, scale 1.
  const CsrGraph i = load_graph(dir.write("i.txt", "1 2 7\n2 3 4294967295\n"), {});
  CHECK(i.weight_scale == 1);
  CHECK(weights_of(i) == std::vector<Weight>{7, 4294967295u});
  // A later fraction would push an earlier integer past 32 bits.
  check_error(dir.write("o.txt", "1 2 5000000\n2 3 0.5\n"), {}, 2, "does not fit 32 bits");
  check_error(dir.write("big.txt", "1 2 3\n"), with("scale:2000000000"), 1,
              "'3' x 2e+09 does not fit 32 bits");
}

TEST_CASE("integer formats keep integer weights under every policy", "[graph][weights]") {
  TempDir dir;
  const std::string mtx = dir.write(
      "s.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 4\n2 1 -1\n");
  check_error(mtx, {}, 4, "negative weight '-1'");
  CHECK(weights_of(load_graph(mtx, with("abs"))) == std::vector<Weight>{4, 1, 1});
  CHECK(load_graph(mtx, with("ignore")).num_edges() == 3);
  const std::string gr = dir.write("a.gr", "p sp 2 1\na 1 2 -4\n");
  check_error(gr, with("reject"), 2, "negative weight");
  CHECK(weights_of(load_graph(gr, with("abs"))) == std::vector<Weight>{4});
  // A fraction in an integer format is malformed whatever the policy.
  check_error(dir.write("b.gr", "p sp 2 1\na 1 2 0.5\n"), with("ignore"), 2,
              "expected an integer weight, found '0.5'");
}

TEST_CASE("Anaheim keeps its integral lengths exactly", "[graph][weights]") {
  const CsrGraph g = load_graph(shared_data("Anaheim_net.tntp"), {});
  CHECK(g.weight_scale == 1);
  CHECK(g.raised_weights == 0);
  CHECK(std::count(g.weights.begin(), g.weights.end(), 0u) == 0);
  CHECK_FALSE(load_graph(shared_data("Anaheim_net.tntp"), with("ignore")).has_weights());
}

TEST_CASE("weights= and format= spellings", "[graph][weights]") {
  CHECK(WeightPolicy::parse("auto").mode == WeightMode::automatic);
  CHECK(WeightPolicy::parse("reject").mode == WeightMode::reject);
  CHECK(WeightPolicy::parse("abs").mode == WeightMode::abs);
  CHECK(WeightPolicy::parse("unit").mode == WeightMode::unit);
  const WeightPolicy s = WeightPolicy::parse("scale:0.5");
  CHECK(s.mode == WeightMode::scale);
  CHECK(s.factor == 0.5);
  CHECK(s.name() == "scale:0.5");
  for (const char* bad :
       {"", "Auto", "scale", "scale:", "scale:0", "scale:-1", "scale:x", "ignore"})
    CHECK_THROWS_AS(WeightPolicy::parse(bad), InputOptionError);
  CHECK(parse_graph_format("gml") == GraphFormat::gml);
  CHECK(parse_graph_format("edgelist") == GraphFormat::edge_list);
  CHECK_THROWS_WITH(parse_graph_format("xml"), Catch::Contains("auto|mtx|edgelist"));
}
