// `tlmgpu sweep` and `tlmgpu report` (docs/sweeps.md). The spec is checked
// completely (every platform x config loaded exactly as `run` loads it, every
// workload and argument name) before the first run starts, so a typo costs a
// second, not a night.
#include "cli.hpp"
#include "sweep_cmd.hpp"

#include "src/sweep/report_html.hpp"
#include "src/sweep/results_schema.hpp"
#include "src/sweep/sweep_results.hpp"
#include "src/sweep/sweep_spec.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/file_io.hpp"
#include "tlmgpu/json_limits.hpp"
#include "tlmgpu/manifest.hpp"
#include "tlmgpu/node.hpp"
#include "workloads/node_apps/node_app.hpp"
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

// A platform or a node file (a runtime node's --sets go to its node groups).
void load_any(const std::string& path, const std::vector<std::string>& sets = {}) {
  if (is_node_file(path))
    load_node(path, sets);
  else
    load_platform(path, sets);
}

void validate(const sweep::SweepSpec& s) {
  for (std::size_t p = 0; p < s.platforms.size(); ++p) {
    try {
      load_any(resolve_platform(s.platform_args[p]));
    } catch (const ConfigError& e) {
      throw ConfigError(s.file + ": platforms[" + std::to_string(p) + "]: " + e.what());
    }
    for (const sweep::SweepConfig& c : s.configs) {
      try {
        load_any(resolve_platform(s.platform_args[p]), set_args(c));
      } catch (const ConfigError& e) {
        throw ConfigError(s.file + ": configs." + c.label + " on platform '" + s.platforms[p] +
                          "': " + e.what());
      }
    }
  }
  for (std::size_t i = 0; i < s.workloads.size(); ++i) {
    const sweep::SweepWorkload& w = s.workloads[i];
    bool task_program = false; // a runtime node's program (workloads/node_apps)
    for (const NodeAppEntry& e : node_app_registry())
      task_program = task_program || e.info.name == w.workload;
    std::map<std::string, std::string> args(w.args.begin(), w.args.end());
    if (!w.inputs[0].empty()) args["input"] = w.resolved_inputs[0];
    const std::string where = s.file + ": workloads[" + std::to_string(i) + "] ('" + w.label + "')";
    const WorkloadInfo* info = nullptr;
    try {
      info = task_program ? &find_node_app(w.workload).info : &find_workload(w.workload).info;
      WorkloadArgs check(*info, args);
    } catch (const ConfigError& e) {
      throw ConfigError(where + ": " + e.what());
    }
    // A config's args join every workload's: each must be one of its
    // arguments, and not one the workload sets itself (run refuses a
    // repeated --arg).
    for (const sweep::SweepConfig& c : s.configs) {
      if (c.args.empty()) continue;
      std::map<std::string, std::string> merged = args;
      for (const auto& [k, v] : c.args)
        if (!merged.emplace(k, v).second)
          throw ConfigError(s.file + ": configs." + c.label + ".args." + k + ": also set by " +
                            where.substr(s.file.size() + 2) + ".args");
      try {
        WorkloadArgs check(*info, merged);
      } catch (const ConfigError& e) {
        throw ConfigError(s.file + ": configs." + c.label + ".args with " +
                          where.substr(s.file.size() + 2) + ": " + e.what());
      }
    }
  }
}

// A dry run lists the points as it computes them: O(points), nothing kept,
// so a 10^6-point spec lists in seconds.
int dry_run(const Sweep& s) {
  std::size_t done = 0;
  const std::size_t n = s.space.size();
  std::error_code ec;
  const bool fresh = !fs::exists(s.root, ec); // nothing can be done: no file to look for
  for (std::size_t k = 0; k < n && !stop_requested(); ++k) {
    const sweep::Point p = s.space.at(k);
    std::string why;
    const bool ok = !fresh && sweep::point_done(s.root / p.dir, p.args, &why);
    done += ok;
    if (!why.empty()) std::cerr << "sweep: not trusting a passed point: " << why << "\n";
    std::cout << (ok ? "done " : "run  ") << p.dir << "\n     " << quoted(p.args) << "\n";
  }
  if (stop_requested()) return kExitFailed; // e.g. `--dry-run | head`: the reader left
  std::cout << n << " points, " << done << " done, " << n - done << " to run\n";
  return kExitOk;
}

std::string backend_of(const po::variables_map& vm, const sweep::SweepSpec& spec) {
  const std::string b = vm.count("backend")         ? vm["backend"].as<std::string>()
                        : spec.backend.type.empty() ? "local"
                                                    : spec.backend.type;
  if (b != "local" && b != "parallel" && b != "slurm")
    throw UsageError("--backend: expected one of local, parallel, slurm, got '" + b + "'");
  return b;
}

BackendOptions backend_options(const po::variables_map& vm, const sweep::SweepSpec& spec) {
  BackendOptions b;
  const auto pick = [&](const char* flag, const std::string& from_spec) {
    return vm.count(flag) ? vm[flag].as<std::string>() : from_spec;
  };
  b.partition = pick("partition", spec.backend.partition);
  b.time = pick("time", spec.backend.time);
  b.mem = pick("mem", spec.backend.mem);
  b.account = pick("account", spec.backend.account);
  b.sshloginfile = pick("sshloginfile", spec.backend.sshloginfile);
  b.throttle = !vm["jobs"].defaulted();
  b.wait = vm["wait"].as<bool>();
  return b;
}

} // namespace

Sweep::Sweep(SweepRecord r, const std::string& shown_file)
    : rec(std::move(r)), spec(sweep::parse_spec(rec.spec_text, shown_file, rec.base_dir)),
      space(spec) {}

std::string quoted(const std::vector<std::string>& args) {
  std::string s = "tlmgpu";
  for (const std::string& a : args)
    s += " " + (a.find_first_of(" ?&*'\"$;|<>()") == std::string::npos ? a : "'" + a + "'");
  return s;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 1 ? "%.2f s" : "%.1f s", s);
  return buf;
}

std::string last_line(const std::string& s) {
  const auto nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

int cmd_sweep(const Args& args) {
  // From the first moment: a signal while the spec is checked must not
  // kill the sweep half-way through creating its directory.
  const StopSignals signals;
  po::options_description desc("options");
  desc.add_options()                                                                    //
      ("spec", po::value<std::string>(), "sweep spec (JSON, see docs/sweeps.md)")       //
      ("jobs,j", po::value<long long>()->default_value(1), "runs at a time")            //
      ("out", po::value<std::string>(), "sweep directory (points, results)")            //
      ("dry-run", po::bool_switch(), "check the spec and list the points; run nothing") //
      ("timeout-s", po::value<double>()->default_value(0),
       "stop a run after S seconds (0 = never)")(
          "backend", po::value<std::string>(),
          "where points run: local (default), parallel, slurm")(
          "max-points", po::value<long long>()->default_value(100000),
          "refuse a larger matrix unless --force")                          //
      ("force", po::bool_switch(), "run a matrix larger than --max-points") //
      ("status", po::value<std::string>(), "DIR: print done / failed / running / pending")(
          "merge", po::value<std::string>(), "DIR: merge the points' results (Slurm's last job)")(
          "run-point", po::value<long long>(), "K: run point K of the sweep in DIR (a worker)")(
          "spec-hash", po::value<std::string>(), "with --run-point: the spec it was submitted for")(
          "sshloginfile", po::value<std::string>(), "parallel: GNU parallel's host list")(
          "partition", po::value<std::string>(), "slurm: sbatch --partition") //
      ("time", po::value<std::string>(), "slurm: sbatch --time per point")    //
      ("mem", po::value<std::string>(), "slurm: sbatch --mem per point")      //
      ("account", po::value<std::string>(), "slurm: sbatch --account")        //
      ("wait", po::bool_switch(), "slurm: wait until the merge job ended");
  po::positional_options_description pos;
  pos.add("spec", 1);
  po::variables_map vm;
  if (!parse("sweep",
             "tlmgpu sweep <spec.json> --out DIR [-j N] [--backend local|parallel|slurm] "
             "[--dry-run] [--timeout-s S]\n"
             "       tlmgpu sweep --status DIR | --merge DIR | --run-point K DIR",
             args, desc, pos, vm))
    return kExitOk;
  if (vm.count("status")) return sweep_status(vm["status"].as<std::string>());
  if (vm.count("merge")) return sweep_merge(vm["merge"].as<std::string>());
  if (vm.count("run-point")) {
    if (!vm.count("spec")) throw UsageError("--run-point K DIR: missing the sweep directory");
    const long long k = vm["run-point"].as<long long>();
    if (k < 0) throw UsageError("--run-point: expected a point index, got " + std::to_string(k));
    return sweep_run_point(vm["spec"].as<std::string>(), std::size_t(k),
                           vm.count("spec-hash") ? vm["spec-hash"].as<std::string>() : "");
  }
  if (!vm.count("spec")) throw UsageError("sweep: missing spec file (see 'tlmgpu sweep --help')");
  if (!vm.count("out")) throw UsageError("sweep: missing --out DIR (see 'tlmgpu sweep --help')");
  RunnerOptions ro;
  ro.parallel = jobs_option(vm);
  ro.timeout_s = vm["timeout-s"].as<double>();
  if (!(ro.timeout_s >= 0)) throw UsageError("--timeout-s: must be 0 (never) or positive");
  const long long max_points = vm["max-points"].as<long long>();
  if (max_points < 1) throw UsageError("--max-points: must be at least 1");

  const std::string spec_file = vm["spec"].as<std::string>();
  Sweep s(record_of(spec_file, ro.timeout_s), spec_file);
  validate(s.spec);
  const std::string backend = backend_of(vm, s.spec);
  const BackendOptions bo = backend_options(vm, s.spec);
  s.out = fs::absolute(vm["out"].as<std::string>()).lexically_normal();
  s.root = s.out / "points";
  std::error_code ec;
  if (fs::exists(s.out, ec) && !fs::is_directory(s.out, ec))
    throw OutputError("--out '" + vm["out"].as<std::string>() + "': exists and is not a directory");
  if (vm["dry-run"].as<bool>()) return dry_run(s);
  if (s.space.size() > std::size_t(max_points) && !vm["force"].as<bool>())
    throw UsageError(s.spec.file + ": " + std::to_string(s.space.size()) +
                     " points is more than --max-points " + std::to_string(max_points) +
                     "; check the spec with --dry-run, then pass --force or a larger --max-points");
  if (stop_requested()) return kExitFailed; // nothing was created yet

  const DirLock lock(s.out, s.rec, true);
  std::size_t n_done = 0;
  const std::vector<bool> done = done_points(s, n_done);
  if (const int sig = stop_requested()) { // nothing ran: the results are as they were
    std::cerr << "tlmgpu: sweep stopped by signal " << sig << " before any point ran" << std::endl;
    return kExitFailed;
  }
  if (backend == "parallel") return sweep_parallel(s, ro, bo, done);
  if (backend == "slurm") return sweep_slurm(s, ro, bo, done, n_done);
  return sweep_local(s, ro, done, n_done);
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
