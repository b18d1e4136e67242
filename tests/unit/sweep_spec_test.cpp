// Sweep specs: the strict reader (every mistake is one ConfigError naming the
// file and key path), defaults, value rendering for --set/--arg, input paths
// relative to the spec, and point expansion with unique directory names.
#include "src/sweep/sweep_spec.hpp"

#include "tlmgpu/params.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace tlmgpu;
using namespace tlmgpu::sweep;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path root;
  TempDir() {
    static std::atomic<int> counter{0};
    root = fs::temp_directory_path() / ("tlmgpu_sweep_spec_test_" + std::to_string(::getpid()) +
                                        "_" + std::to_string(counter++));
    fs::create_directories(root);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

const char* const kMinimal = R"({
  "platforms": ["tiny"],
  "configs": {"Baseline": {}, "LAB-8": {"lab.entries": 8}},
  "workloads": [{"workload": "histogram", "args": {"n": 4096}}]
})";

SweepSpec parse(const std::string& text, const fs::path& base = fs::temp_directory_path()) {
  return parse_spec(text, "s.json", base);
}

// The message of the ConfigError `text` raises ("" when it parses).
std::string error_of(const std::string& text, const fs::path& base = fs::temp_directory_path()) {
  try {
    parse(text, base);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("sweep spec: defaults and order", "[sweep]") {
  const SweepSpec s = parse(R"({"platforms": ["tiny"],
    "configs": {"Z": {}, "A": {"l2.ways": 8}, "M": {}},
    "workloads": [{"workload": "histogram"}]})");
  CHECK(s.name == "s");
  CHECK(s.timing == "lt");
  CHECK(s.baseline == "Z"); // the first config, in file order (not sorted)
  REQUIRE(s.configs.size() == 3);
  CHECK(s.configs[1].label == "A");
  CHECK(s.configs[2].label == "M");
  CHECK(s.seeds == std::vector<uint64_t>{1});
  CHECK(s.workloads[0].label == "histogram");
  CHECK(s.workloads[0].inputs == std::vector<std::string>{""});
}

TEST_CASE("sweep spec: every mistake names the file and key", "[sweep]") {
  CHECK(error_of(R"({"platforms": ["tiny"], "configs": {"B": {}}, "workloads": [{"workload": "x"}],
                     "seed": [1]})") ==
        "s.json: seed: unknown key (did you mean 'seeds'?); expected one of: name, timing, "
        "baseline, platforms, configs, workloads, seeds, keep_stats, backend, figures");
  CHECK(error_of(R"({"platforms": ["tiny"], "configs": {"B": {}}, "workloads": [{"workload": "x"}],
                     "keep_stats": "no"})") ==
        "s.json: keep_stats: expected true or false, got \"no\"");
  CHECK(error_of(
            R"({"platforms": "tiny", "configs": {"B": {}}, "workloads": [{"workload": "x"}]})") ==
        "s.json: platforms: expected a list, got \"tiny\"");
  CHECK(error_of(R"({"platforms": [], "configs": {"B": {}}, "workloads": [{"workload": "x"}]})") ==
        "s.json: platforms: must not be empty");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {}, "workloads": [{"workload": "x"}]})") ==
        "s.json: configs: must not be empty");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {}, "B": {}},
                     "workloads": [{"workload": "x"}]})") == "s.json: configs.B: duplicate key");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {}},
                     "workloads": [{"workload": "x"}, {"workload": "x"}]})")
            .find("s.json: workloads[1]: duplicate workload label 'x'") == 0);
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {}},
                     "workloads": [{"workload": "x", "args": {"n": 1, "n": 2}}]})") ==
        "s.json: workloads[0].args.n: duplicate key");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {}},
                     "workloads": [{"workload": "x", "argz": {}}]})")
            .find("s.json: workloads[0].argz: unknown key (did you mean 'args'?)") == 0);
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {"timing": "fast"}},
                     "workloads": [{"workload": "x"}]})") ==
        "s.json: configs.B.timing: expected one of functional, lt, at, got 'fast'");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {"l2.ways": [1]}},
                     "workloads": [{"workload": "x"}]})") ==
        "s.json: configs.B.l2.ways: expected a number, boolean or string, got [1]");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {"lab": {"entries": 8},
                     "lab.entries": 16}}, "workloads": [{"workload": "x"}]})") ==
        "s.json: configs.B.lab.entries: parameter 'lab.entries' is given twice");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {}}, "baseline": "b",
                     "workloads": [{"workload": "x"}]})") ==
        "s.json: baseline: 'b' is not one of the configs (did you mean 'B'?)");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {}}, "seeds": [1, -2],
                     "workloads": [{"workload": "x"}]})") ==
        "s.json: seeds[1]: expected an unsigned integer, got -2");
  CHECK(error_of(R"({"platforms": ["t"], "configs": {"B": {}}, "workloads": [{"label": "x"}]})") ==
        "s.json: workloads[0]: missing key 'workload'");
  CHECK(error_of(R"({"configs": {"B": {}}, "workloads": [{"workload": "x"}]})") ==
        "s.json: missing key 'platforms'");
  CHECK(
      error_of("{\"platforms\": [\"t\"],\n  \"configs\": {").find("s.json:2:15: malformed JSON") ==
      0);
  CHECK(error_of(kMinimal).empty());
}

TEST_CASE("sweep spec: figures name configs of the spec", "[sweep]") {
  const std::string head =
      R"({"platforms": ["t"], "configs": {"B": {}, "GWAT-32": {}, "GWAT-64": {}},
                               "workloads": [{"workload": "x"}], "figures": )";
  const SweepSpec s = parse(head + R"([{"title": "capacity", "configs": ["GWAT-64", "GWAT-32"]},
      {"title": "t", "metric": "interconnect_bytes", "caption": "c", "configs": ["B"]}]})");
  REQUIRE(s.figures.size() == 2);
  CHECK(s.figures[0].configs == std::vector<std::string>{"GWAT-64", "GWAT-32"});
  CHECK(s.figures[0].metric == "cycles");
  CHECK(s.figures[0].caption.empty());
  CHECK(s.figures[1].metric == "interconnect_bytes");
  CHECK(error_of(head + R"([{"title": "t", "configs": ["GWAT-16"]}]})") ==
        "s.json: figures[0].configs[0]: 'GWAT-16' is not one of the configs (did you mean "
        "'GWAT-32'?)");
  CHECK(error_of(head + R"([{"title": "t", "configs": ["B", "B"]}]})") ==
        "s.json: figures[0].configs[1]: config 'B' is listed twice");
  CHECK(error_of(head + R"([{"configs": ["B"]}]})") == "s.json: figures[0]: missing key 'title'");
  CHECK(error_of(head + R"([{"title": "t", "configs": []}]})") ==
        "s.json: figures[0].configs: must not be empty");
  CHECK(error_of(head + R"([{"title": "t", "configs": ["B"], "metrics": "x"}]})")
            .find("s.json: figures[0].metrics: unknown key (did you mean 'metric'?)") == 0);
}

TEST_CASE("sweep spec: values become --set/--arg text", "[sweep]") {
  const SweepSpec s = parse(R"({"platforms": ["t"],
    "configs": {"B": {"lab": {"entries": 8, "enabled": true}, "l1.atomic_mode": "phi",
                      "x.name": "16", "timing": "at"}},
    "workloads": [{"workload": "h", "args": {"racy": true, "scale": 0.5, "n": 4096}}]})");
  const KeyValues want = {{"lab.entries", "8"},
                          {"lab.enabled", "true"},
                          {"l1.atomic_mode", "phi"},
                          {"x.name", "\"16\""}}; // a string that looks like a number stays a string
  CHECK(s.configs[0].sets == want);
  CHECK(s.configs[0].timing == "at");
  const KeyValues args = {{"racy", "1"}, {"scale", "0.5"}, {"n", "4096"}};
  CHECK(s.workloads[0].args == args);
}

TEST_CASE("sweep spec: inputs resolve against the spec's directory", "[sweep]") {
  TempDir t;
  fs::create_directories(t.root / "data");
  std::ofstream(t.root / "data" / "g.mtx") << "x";
  const SweepSpec s = parse(R"({"platforms": ["t", "p/my.json"], "configs": {"B": {}},
    "workloads": [{"workload": "pagerank", "inputs": ["data/g.mtx", "gen:rmat?scale=4"]},
                  {"label": "D", "workload": "histogram", "args": {"input": "digits:data/g.mtx"}}]})",
                            t.root);
  const SweepWorkload& w = s.workloads[0];
  CHECK(w.inputs[0] == "data/g.mtx");
  CHECK(w.resolved_inputs[0] == (t.root / "data" / "g.mtx").string());
  CHECK(w.resolved_inputs[1] == "gen:rmat?scale=4");
  CHECK(s.workloads[1].resolved_inputs[0] == "digits:" + (t.root / "data" / "g.mtx").string());
  CHECK(s.platform_args[0] == "t"); // a name: `run` resolves it
  CHECK(s.platform_args[1] == (t.root / "p" / "my.json").string());

  const std::string e = error_of(R"({"platforms": ["t"], "configs": {"B": {}},
    "workloads": [{"workload": "pagerank", "inputs": ["gen", "nope.txt"]}]})",
                                 t.root);
  CHECK(e == "s.json: workloads[0].inputs[1]: no such input file '" +
                 (t.root / "nope.txt").string() + "'");
}

TEST_CASE("sweep points: matrix order, readable unique directories, run args", "[sweep]") {
  TempDir t;
  std::ofstream(t.root / "as20graph.txt") << "x";
  const SweepSpec s = parse(R"({"platforms": ["titanv"], "seeds": [1, 7],
    "configs": {"Baseline": {}, "LAB 8": {"lab.entries": 8}, "LAB/8": {"timing": "at"}},
    "workloads": [{"label": "H", "workload": "histogram", "args": {"n": 64}},
                  {"label": "PR", "workload": "pagerank",
                   "inputs": ["as20graph.txt", "gen:rmat?scale=12&ef=8"]}]})",
                            t.root);
  const std::vector<Point> pts = expand(s);
  REQUIRE(pts.size() == 1 * 3 * (1 + 2) * 2);
  CHECK(pts[0].dir == "titanv/Baseline/H/s1");
  CHECK(pts[1].dir == "titanv/Baseline/H/s7");
  CHECK(pts[2].dir == "titanv/Baseline/PR/as20graph/s1");
  CHECK(pts[4].dir == "titanv/Baseline/PR/rmat-scale12-ef8/s1");
  CHECK(pts[6].dir == "titanv/LAB_8/H/s1");
  CHECK(pts[12].dir == "titanv/LAB_8-2/H/s1"); // "LAB/8" sanitises to the same name
  CHECK(pts[12].timing == "at");
  std::set<std::string> dirs;
  for (const Point& p : pts)
    dirs.insert(p.dir);
  CHECK(dirs.size() == pts.size());

  const std::vector<std::string> want = {"run",
                                         "-p",
                                         "titanv",
                                         "--set",
                                         "lab.entries=8",
                                         "-w",
                                         "pagerank",
                                         "--input",
                                         (t.root / "as20graph.txt").string(),
                                         "--seed",
                                         "7",
                                         "--timing",
                                         "lt"};
  CHECK(pts[9].args == want);
  CHECK(pts[9].config == 1);
  CHECK(pts[9].input == 0);
  CHECK(pts[9].seed == 7);
}

TEST_CASE("sweep names: sanitize and input_name", "[sweep]") {
  CHECK(sanitize("LAB-8") == "LAB-8");
  CHECK(sanitize("a b/c") == "a_b_c");
  CHECK(sanitize("..") == "_..");
  CHECK(sanitize("") == "_");
  CHECK(input_name("../shared/data/karate.mtx") == "karate");
  CHECK(input_name("gen:rmat?scale=12&ef=8&seed=1") == "rmat-scale12-ef8-seed1");
  CHECK(input_name("digits:/x/optdigits.tra") == "digits-optdigits");
  CHECK(input_name("gen") == "gen");
}

TEST_CASE("sweep point space: point k by index, the matrix order, without materialising",
          "[sweep]") {
  // Workloads with 1, 3 and 2 inputs: blocks of unequal size per workload.
  const SweepSpec s = parse(R"({"platforms": ["a", "b"], "seeds": [5, 9],
    "configs": {"X": {}, "Y": {"lab.entries": 8}},
    "workloads": [{"label": "H", "workload": "histogram"},
                  {"label": "P", "workload": "pagerank", "inputs": ["gen:a", "gen:b", "gen:a?x=1"]},
                  {"label": "Q", "workload": "bfs", "inputs": ["gen:c", "gen:c="]}]})",
                            fs::temp_directory_path());
  const PointSpace space(s);
  REQUIRE(space.size() == 2 * 2 * (1 + 3 + 2) * 2);
  std::vector<std::string> want;
  for (const char* p : {"a", "b"})
    for (const char* c : {"X", "Y"})
      for (const std::string w : {"H", "P/a", "P/b", "P/a-x1", "Q/c", "Q/c-2"})
        for (const char* seed : {"s5", "s9"})
          want.push_back(std::string(p) + "/" + c + "/" + w + "/" + seed);
  for (std::size_t k = 0; k < space.size(); ++k)
    CHECK(space.at(k).dir == want[k]);
  CHECK(space.at(10).workload == 2); // block: H 2, P 6, Q 4 points
  CHECK(space.at(10).input == 1);
  CHECK(space.at(10).seed == 5);
  CHECK(space.at(13).config == 1);
  CHECK(space.at(13).args == expand(s)[13].args);
}

TEST_CASE("sweep point space: a 10^6-point spec costs its spec, not its points", "[sweep]") {
  std::string seeds;
  for (int i = 1; i <= 1000; ++i)
    seeds += (i > 1 ? "," : "") + std::to_string(i);
  std::string configs;
  for (int i = 0; i < 1000; ++i)
    configs += (i ? "," : "") + std::string("\"c") + std::to_string(i) + "\": {}";
  const SweepSpec s = parse(R"({"platforms": ["t"], "seeds": [)" + seeds + R"(],
    "configs": {)" + configs + R"(}, "workloads": [{"workload": "histogram"}]})",
                            fs::temp_directory_path());
  const PointSpace space(s);
  CHECK(space.size() == 1000000);
  CHECK(space.at(999999).dir == "t/c999/histogram/s1000");
}

TEST_CASE("sweep spec: the backend section", "[sweep]") {
  const std::string head = R"({"platforms": ["t"], "configs": {"B": {}},
    "workloads": [{"workload": "histogram"}], "backend": )";
  const SweepSpec s = parse(head + R"({"type": "slurm", "partition": "cpu", "time": "1:00:00",
    "mem": "4G", "account": "arch", "sshloginfile": "hosts.txt"}})",
                            "/spec/dir");
  CHECK(s.backend.type == "slurm");
  CHECK(s.backend.partition == "cpu");
  CHECK(s.backend.time == "1:00:00");
  CHECK(s.backend.mem == "4G");
  CHECK(s.backend.account == "arch");
  CHECK(s.backend.sshloginfile == "/spec/dir/hosts.txt"); // relative to the spec
  CHECK(parse(kMinimal).backend.type.empty());
  CHECK(error_of(head + R"({"type": "pbs"}})") ==
        "s.json: backend.type: expected one of local, parallel, slurm, got 'pbs'");
  CHECK(error_of(head + R"({"partiton": "cpu"}})")
            .find("backend.partiton: unknown key (did you "
                  "mean 'partition'?)") != std::string::npos);
  CHECK(error_of(head + R"({"time": 60}})") == "s.json: backend.time: expected a string, got 60");
}
