// Helpers for system tests: every TEST_CASE runs in its own process (CTest
// entry per case), so each may call run_simulation exactly once.
#pragma once

#include "tlmgpu/app/run.hpp"
#include "tlmgpu/config.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tlmgpu::test {

struct RunResult {
  int rc = -1;
  std::string summary;
  nlohmann::json stats;
};

// A platform name ("tiny") or a .json path relative to the source tree.
inline std::string platform_path(const std::string& name) {
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
    return std::string(TLMGPU_SOURCE_DIR) + "/" + name;
  return std::string(TLMGPU_SOURCE_DIR) + "/platforms/" + name + ".json";
}

inline RunResult run(const std::string& platform, const std::string& workload, TimingMode mode,
                     std::map<std::string, std::string> args = {},
                     std::vector<std::string> sets = {}) {
  RunOptions o;
  o.platform_path = platform_path(platform);
  o.platform = load_platform(o.platform_path, sets);
  o.workload = workload;
  o.args = std::move(args);
  o.timing = mode;
  o.seed = 7;
  o.kernel_stats = RunOptions::KernelStats::Full; // tests read kernels[i].stats
  o.out_dir =
      (std::filesystem::temp_directory_path() / ("tlmgpu_test_" + std::to_string(::getpid())))
          .string();
  std::ostringstream out;
  RunResult r;
  r.rc = run_simulation(o, out);
  r.summary = out.str();
  std::ifstream f(std::filesystem::path(o.out_dir) / "stats.json");
  f >> r.stats;
  // Each kernel's whole stats tree comes from kernels.jsonl, in order.
  std::ifstream lines(std::filesystem::path(o.out_dir) / "kernels.jsonl");
  std::string line;
  for (size_t i = 0; std::getline(lines, line); ++i)
    if (i < r.stats["kernels"].size())
      r.stats["kernels"][i]["stats"] = nlohmann::json::parse(line)["stats"];
  std::filesystem::remove_all(o.out_dir);
  return r;
}

// Tests comparing several runs: SystemC elaborates once per process, so each
// run is the real binary (TLMGPU_BINARY) in its own process, its stats.json
// read back.
struct Cli {
  int rc = -1;
  nlohmann::json stats;
};
inline Cli run_cli(const std::string& platform, const std::string& workload,
                   const std::string& args, const std::string& timing = "lt") {
  static int n = 0;
  const std::string out = (std::filesystem::temp_directory_path() /
                           ("tlmgpu_cli_" + std::to_string(::getpid()) + "_" + std::to_string(n++)))
                              .string();
  const std::string cmd = std::string(TLMGPU_BINARY) + " run --quiet -p " + platform + " -w " +
                          workload + " --timing " + timing + " --seed 7 --out " + out + " " + args +
                          " > /dev/null 2>&1";
  Cli c;
  const int status = std::system(cmd.c_str());
  c.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(std::filesystem::path(out) / "stats.json");
  if (f) f >> c.stats;
  std::filesystem::remove_all(out);
  return c;
}

// Sum of one stat's value over every block whose path matches prefix*.
inline double sum_stat(const nlohmann::json& node, const std::string& stat) {
  double s = 0;
  if (!node.is_object()) return 0;
  for (auto& [k, v] : node.items()) {
    if (k == stat && v.is_object() && v.contains("value") && v["value"].is_number())
      s += v["value"].get<double>();
    else if (v.is_object() && !v.contains("type"))
      s += sum_stat(v, stat);
  }
  return s;
}

} // namespace tlmgpu::test
