// `tlmgpu determinism`: runs one platform and workload under seeds 1..N, each
// a `tlmgpu run` process of this binary (as `tlmgpu sweep` does), and reports
// how many distinct output hashes (stats.json output_hash) they gave, which
// seeds gave which, and the spread of kernel cycles. With jitter.enable the
// seed drives the injected non-determinism (docs/timing.md), so one hash over
// many seeds means the result does not depend on the order the hardware
// happened to apply things; differing cycles show the perturbation arrived.
// A measuring tool: it exits 0 whatever the count, 1 only when a run left no
// stats to measure.
#include "cli.hpp"
#include "sweep_runner.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/json_limits.hpp"
#include "tlmgpu/manifest.hpp"
#include "tlmgpu/node.hpp"
#include "workloads/workload.hpp"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace tlmgpu::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;
namespace {

// What one seed's run left in its stats.json.
struct SeedResult {
  uint64_t seed = 0;
  bool has_stats = false;
  std::string hash, check, error;
  uint64_t cycles = 0; // kernel cycles, summed over kernels (and devices)
};

uint64_t kernel_cycles(const nlohmann::json& kernels) {
  uint64_t c = 0;
  if (kernels.is_array())
    for (const auto& k : kernels)
      c += k.value("cycles", uint64_t{0});
  return c;
}

SeedResult read_result(uint64_t seed, const fs::path& dir, const sweep::Outcome& o) {
  SeedResult r;
  r.seed = seed;
  std::string text;
  const std::string bad = verify_manifest(dir, {"stats.json"}); // as the run wrote it
  const nlohmann::json s = bad.empty() && read_text_file((dir / "stats.json").string(), text)
                               ? try_parse_json(text)
                               : nlohmann::json();
  if (s.is_object() && s.contains("output_hash") && s["output_hash"].is_string()) {
    r.has_stats = true;
    r.hash = s["output_hash"].get<std::string>();
    r.check = s.contains("check") && s["check"].is_string() ? s["check"].get<std::string>() : "";
    r.cycles = kernel_cycles(s.value("kernels", nlohmann::json()));
    for (const auto& d : s.value("devices", nlohmann::json::array()))
      r.cycles += kernel_cycles(d.value("kernels", nlohmann::json()));
  }
  if (!r.has_stats) { // the last line of its stderr says why
    std::string tail = o.error_tail.empty() ? o.status : o.error_tail;
    while (!tail.empty() && tail.back() == '\n')
      tail.pop_back();
    r.error = tail.substr(tail.rfind('\n') == std::string::npos ? 0 : tail.rfind('\n') + 1);
  }
  return r;
}

std::string seed_list(const std::vector<uint64_t>& seeds) {
  std::string s;
  for (uint64_t x : seeds)
    s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

// Everything a run would refuse, refused here once instead of N times.
bool validate(const std::string& platform, const std::vector<std::string>& sets,
              const std::string& workload, const std::map<std::string, std::string>& args) {
  bool jitter = false;
  if (is_node_file(platform)) {
    for (const PlatformSpec& g : load_node(platform, sets).gpus)
      jitter = jitter || g.jitter.enable;
    std::stringstream names(workload);
    for (std::string w; std::getline(names, w, ',');)
      find_workload(w); // per-GPU arguments are checked by the runs
  } else {
    jitter = load_platform(platform, sets).jitter.enable;
    WorkloadArgs check(find_workload(workload).info, args);
  }
  return jitter;
}

} // namespace

int cmd_determinism(const Args& args) {
  po::options_description desc("options");
  add_platform_options(desc);
  desc.add_options()                                                                            //
      ("workload,w", po::value<std::string>()->required(), "workload name (see 'tlmgpu list')") //
      ("arg", po::value<std::vector<std::string>>()->composing(),                               //
       "workload argument: --arg n=4096 (repeatable)")                                          //
      ("seeds", po::value<std::string>()->required(), "run seeds 1..N")                         //
      ("timing", po::value<std::string>()->default_value("lt"), "functional | lt | at")         //
      ("jobs,j", po::value<long long>()->default_value(1), "runs at a time")                    //
      ("out", po::value<std::string>(),
       "keep each run in DIR/seed_<s> (default: a temporary directory, removed after)");
  po::variables_map vm;
  if (!parse("determinism",
             "tlmgpu determinism -p <platform> -w <workload> --seeds N [--arg k=v]... "
             "[--set k=v]... [--timing lt|at|functional] [--jobs J] [--out DIR]\n\n"
             "Runs seeds 1..N (one process each) and prints the number of distinct output\n"
             "hashes (stats.json output_hash: every buffer the host copied back), the seeds\n"
             "behind each hash and the spread of kernel cycles. --set jitter.enable=true\n"
             "injects seeded non-determinism (docs/timing.md); without it every seed should\n"
             "give one hash, unless the workload draws its inputs from --seed (histogram\n"
             "input=gen, stream, bwc, conv-bwd-filter, random-traffic, clr, mis do; float-reduce\n"
             "and conv-bwd-filter with data_seed=N do not).\n"
             "Exit 0 whatever the count; 1 when a run left no stats.json",
             args, desc, {}, vm))
    return kExitOk;
  const auto seeds = unsigned(parse_count(vm["seeds"].as<std::string>(), "--seeds", 1, 100000));
  RunnerOptions ro;
  ro.parallel = jobs_option(vm);
  const std::string timing = vm["timing"].as<std::string>();
  if (timing != "functional" && timing != "lt" && timing != "at")
    throw UsageError("--timing: expected one of functional, lt, at, got '" + timing + "'");
  std::map<std::string, std::string> wargs;
  for (const std::string& a : strings(vm, "arg")) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--arg '" + a + "': expected key=value");
    if (!wargs.emplace(a.substr(0, eq), a.substr(eq + 1)).second)
      throw UsageError("--arg " + a.substr(0, eq) + " is given twice");
  }
  const std::string platform = resolve_platform(vm["platform"].as<std::string>());
  const std::string workload = vm["workload"].as<std::string>();
  const std::vector<std::string> sets = strings(vm, "set");
  const bool jitter = validate(platform, sets, workload, wargs);

  const bool keep = vm.count("out") > 0;
  fs::path root =
      keep ? fs::absolute(vm["out"].as<std::string>())
           : fs::temp_directory_path() / ("tlmgpu_determinism_" + std::to_string(::getpid()));
  std::vector<Job> jobs;
  for (uint64_t s = 1; s <= seeds; ++s) {
    Job j;
    j.dir = root / ("seed_" + std::to_string(s));
    fs::create_directories(j.dir);
    fs::remove(j.dir / "stats.json"); // a stale result must not count
    j.args = {"run",  "-p",     platform,          "-w",    workload,       "--timing",
              timing, "--seed", std::to_string(s), "--out", j.dir.string(), "--quiet"};
    for (const auto& [k, v] : wargs)
      j.args.insert(j.args.end(), {"--arg", k + "=" + v});
    for (const std::string& kv : sets)
      j.args.insert(j.args.end(), {"--set", kv});
    if (vm.count("max-memory"))
      j.args.insert(j.args.end(), {"--max-memory", vm["max-memory"].as<std::string>()});
    jobs.push_back(std::move(j));
  }
  std::vector<SeedResult> results(seeds);
  const int stopped = run_jobs(jobs, ro, [&](std::size_t i, const sweep::Outcome& o) {
    results[i] = read_result(i + 1, jobs[i].dir, o);
  });
  if (!keep) fs::remove_all(root);
  if (stopped)
    throw std::runtime_error("determinism: stopped by signal " + std::to_string(stopped));

  std::map<std::string, std::vector<uint64_t>> by_hash;
  std::vector<uint64_t> failed_checks;
  std::vector<const SeedResult*> missing;
  uint64_t lo = UINT64_MAX, hi = 0;
  double sum = 0;
  for (const SeedResult& r : results) {
    if (!r.has_stats) {
      missing.push_back(&r);
      continue;
    }
    by_hash[r.hash].push_back(r.seed);
    if (r.check != "passed") failed_checks.push_back(r.seed);
    lo = std::min(lo, r.cycles), hi = std::max(hi, r.cycles);
    sum += double(r.cycles);
  }
  const size_t measured = seeds - missing.size();
  std::cout << "determinism: " << workload << " on " << platform << " (" << timing << "), seeds 1.."
            << seeds << ", injection " << (jitter ? "on" : "off") << "\n";
  std::cout << "distinct output hashes: " << by_hash.size() << " over " << measured << " runs\n";
  // Largest group first; equal sizes by hash, so the listing is reproducible.
  std::vector<std::pair<std::string, std::vector<uint64_t>>> groups(by_hash.begin(), by_hash.end());
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  for (const auto& [hash, s] : groups)
    std::cout << "  " << hash << "  seeds " << seed_list(s) << "\n";
  if (measured > 0) {
    char buf[160];
    const double mean = sum / double(measured);
    std::snprintf(buf, sizeof buf,
                  "kernel cycles: min %llu, max %llu, mean %.1f (spread %.2f %% of the mean)\n",
                  (unsigned long long)lo, (unsigned long long)hi, mean,
                  mean > 0 ? 100.0 * double(hi - lo) / mean : 0.0);
    std::cout << buf;
  }
  std::cout << "checks: " << measured - failed_checks.size() << " passed";
  if (!failed_checks.empty())
    std::cout << ", " << failed_checks.size() << " failed (seeds " << seed_list(failed_checks)
              << ")";
  std::cout << "\n";
  for (const SeedResult* r : missing)
    std::cout << "seed " << r->seed << ": no stats.json (" << r->error << ")\n";
  return missing.empty() ? kExitOk : kExitFailed;
}

} // namespace tlmgpu::cli
