// `tlmgpu sweep` and `tlmgpu report` (docs/sweeps.md). The spec is checked
// completely (every platform x config loaded exactly as `run` loads it, every
// workload and argument name) before the first run starts, so a typo costs a
// second, not a night.
#include "cli.hpp"
#include "sweep_runner.hpp"

#include "src/sweep/report_html.hpp"
#include "src/sweep/results_schema.hpp"
#include "src/sweep/sweep_results.hpp"
#include "src/sweep/sweep_spec.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/file_io.hpp"
#include "tlmgpu/json_limits.hpp"
#include "tlmgpu/manifest.hpp"
#include "workloads/workload.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

namespace tlmgpu::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;
namespace {

std::vector<std::string> set_args(const sweep::SweepConfig& c) {
  std::vector<std::string> out;
  for (const auto& [k, v] : c.sets)
    out.push_back(k + "=" + v);
  return out;
}

void validate(const sweep::SweepSpec& s) {
  for (std::size_t p = 0; p < s.platforms.size(); ++p) {
    try {
      load_platform(resolve_platform(s.platform_args[p]));
    } catch (const ConfigError& e) {
      throw ConfigError(s.file + ": platforms[" + std::to_string(p) + "]: " + e.what());
    }
    for (const sweep::SweepConfig& c : s.configs) {
      try {
        load_platform(resolve_platform(s.platform_args[p]), set_args(c));
      } catch (const ConfigError& e) {
        throw ConfigError(s.file + ": configs." + c.label + " on platform '" + s.platforms[p] +
                          "': " + e.what());
      }
    }
  }
  for (std::size_t i = 0; i < s.workloads.size(); ++i) {
    const sweep::SweepWorkload& w = s.workloads[i];
    try {
      std::map<std::string, std::string> args(w.args.begin(), w.args.end());
      if (!w.inputs[0].empty()) args["input"] = w.resolved_inputs[0];
      WorkloadArgs check(find_workload(w.workload).info, args);
    } catch (const ConfigError& e) {
      throw ConfigError(s.file + ": workloads[" + std::to_string(i) + "] ('" + w.label +
                        "'): " + e.what());
    }
  }
}

std::string quoted(const std::vector<std::string>& args) {
  std::string s = "tlmgpu";
  for (const std::string& a : args)
    s += " " + (a.find_first_of(" ?&*'\"$;|<>()") == std::string::npos ? a : "'" + a + "'");
  return s;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 1 ? "%.2f s" : "%.1f s", s);
  return buf;
}

std::string last_line(const std::string& s) {
  const auto nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

} // namespace

int cmd_sweep(const Args& args) {
  po::options_description desc("options");
  desc.add_options()                                                                     //
      ("spec", po::value<std::string>(), "sweep spec (JSON, see docs/sweeps.md)")        //
      ("jobs,j", po::value<unsigned>()->default_value(1), "runs at a time")              //
      ("out", po::value<std::string>()->required(), "sweep directory (points, results)") //
      ("dry-run", po::bool_switch(), "check the spec and list the points; run nothing")  //
      ("timeout-s", po::value<double>()->default_value(0),
       "stop a run after S seconds (0 = never)");
  po::positional_options_description pos;
  pos.add("spec", 1);
  po::variables_map vm;
  if (!parse("sweep", "tlmgpu sweep <spec.json> --out DIR [-j N] [--dry-run] [--timeout-s S]", args,
             desc, pos, vm))
    return kExitOk;
  if (!vm.count("spec")) throw UsageError("sweep: missing spec file (see 'tlmgpu sweep --help')");
  RunnerOptions ro;
  ro.parallel = vm["jobs"].as<unsigned>();
  ro.timeout_s = vm["timeout-s"].as<double>();
  if (ro.parallel == 0) throw UsageError("--jobs: must be at least 1");
  if (!(ro.timeout_s >= 0)) throw UsageError("--timeout-s: must be 0 (never) or positive");

  const sweep::SweepSpec spec = sweep::load_spec(vm["spec"].as<std::string>());
  validate(spec);
  const std::vector<sweep::Point> points = sweep::expand(spec);
  const fs::path out = fs::absolute(vm["out"].as<std::string>());
  const fs::path root = out / "points";
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw OutputError("--out '" + vm["out"].as<std::string>() + "': exists and is not a directory");

  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::string why;
    if (sweep::point_done(root / points[i].dir, points[i].args, &why)) continue;
    todo.push_back(i);
    if (!why.empty()) std::cerr << "sweep: not trusting a passed point: " << why << "\n";
  }

  if (vm["dry-run"].as<bool>()) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const bool run = std::find(todo.begin(), todo.end(), i) != todo.end();
      std::cout << (run ? "run  " : "done ") << points[i].dir << "\n     " << quoted(points[i].args)
                << "\n";
    }
    std::cout << points.size() << " points, " << points.size() - todo.size() << " done, "
              << todo.size() << " to run\n";
    return kExitOk;
  }

  std::cerr << "sweep " << spec.name << ": " << points.size() << " points, "
            << points.size() - todo.size() << " done earlier, " << todo.size() << " to run, -j "
            << ro.parallel << "\n";
  std::vector<Job> jobs;
  for (std::size_t i : todo) {
    const fs::path dir = root / points[i].dir;
    fs::create_directories(dir);
    // A stale marker or stats from an earlier spec must not outlive this run.
    fs::remove(dir / "point.json");
    fs::remove(dir / "stats.json");
    Job j{points[i].args, dir};
    j.args.insert(j.args.end(), {"--out", dir.string(), "--quiet"});
    jobs.push_back(std::move(j));
  }
  std::size_t finished = 0;
  const int stopped = run_jobs(
      jobs, ro, [](std::size_t) {},
      [&](std::size_t j, const sweep::Outcome& o) {
        const sweep::Point& p = points[todo[j]];
        // The marker holds what the merge needs; failed points keep their
        // stats for a look.
        std::string what = sweep::write_marker(root / p.dir, p.args, o, spec.keep_stats);
        if (o.status == "failed")
          what += o.signal ? " (signal " + std::to_string(o.signal) + ")"
                           : " (exit " + std::to_string(o.exit_code) + ")";
        std::string tail =
            last_line(what == "corrupt" ? "output does not match its manifest" : o.error_tail);
        std::cerr << "[" << ++finished << "/" << todo.size() << "] " << p.dir << " " << what << " "
                  << seconds(o.seconds) << (tail.empty() ? "" : ": " + tail) << std::endl;
      });

  const nlohmann::ordered_json results = sweep::merge_results(spec, points, root);
  write_file_atomic(out / "results.json", results.dump(2) + "\n");
  write_file_atomic(out / "results.csv", sweep::results_csv(results));
  // What `report` verifies before it trusts results.json.
  write_manifest(out, {{"results.json", hash_file(out / "results.json")},
                       {"results.csv", hash_file(out / "results.csv")}});
  std::size_t passed = 0;
  for (const auto& row : results["points"])
    passed += row["status"] == "passed";
  std::cout << "sweep " << spec.name << ": " << passed << " of " << points.size()
            << " points passed; results: " << (out / "results.csv").string() << "\n";
  if (stopped) {
    std::cerr << "tlmgpu: sweep stopped by signal " << stopped
              << "; run the same command again to resume" << std::endl;
    return kExitFailed;
  }
  return passed == points.size() ? kExitOk : kExitFailed;
}

int cmd_report(const Args& args) {
  po::options_description desc("options");
  desc.add_options()                                                            //
      ("dir", po::value<std::string>(), "sweep directory (holds results.json)") //
      ("out", po::value<std::string>(), "HTML file (default DIR/report.html)");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  if (!parse("report", "tlmgpu report DIR [--out FILE]", args, desc, pos, vm)) return kExitOk;
  if (!vm.count("dir")) throw UsageError("report: missing sweep directory");
  const fs::path dir = vm["dir"].as<std::string>();
  const fs::path in = dir / "results.json";
  std::string text;
  if (!read_text_file(in.string(), text))
    throw ConfigError("cannot open '" + in.string() + "' (run 'tlmgpu sweep' first)");
  // Trusted only as the sweep wrote it (its manifest), and only in the
  // shape the report reads: never an abort on a damaged or foreign file.
  if (const std::string bad = verify_manifest(dir, {"results.json"}); !bad.empty())
    throw ConfigError(bad + " (run the same 'tlmgpu sweep' again to rewrite it)");
  const auto results = parse_json<nlohmann::ordered_json>(text, in.string());
  sweep::check_results_schema(results, in.string());
  const fs::path html =
      vm.count("out") ? fs::path(vm["out"].as<std::string>()) : dir / "report.html";
  write_file_atomic(html, sweep::render_report(results));
  std::cout << "report: " << html.string() << "\n";
  return kExitOk;
}

} // namespace tlmgpu::cli
