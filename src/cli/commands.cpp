// Subcommands of `tlmgpu`. Only `run` reaches the SystemC kernel (through
// run_simulation); list, describe and config stay kernel-free.
#include "cli.hpp"

#include "tlmgpu/app/run.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/memory_budget.hpp"
#include "tlmgpu/node.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iomanip>
#include <iostream>

#ifndef TLMGPU_SOURCE_DIR
#define TLMGPU_SOURCE_DIR "."
#endif

namespace tlmgpu::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;

// Parses `args` against `desc`; returns false when --help was printed instead.
// Abbreviated options are not guessed: a misspelt option is an error.
bool parse(const char* cmd, const char* usage, const Args& args, po::options_description& desc,
           const po::positional_options_description& pos, po::variables_map& vm) {
  desc.add_options()("help,h", "show this help");
  const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).style(style).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: " << usage << "\n\n" << desc;
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see 'tlmgpu " + cmd + " --help')");
  }
  // Before anything is loaded: the platform and the inputs check against it.
  if (vm.count("max-memory"))
    set_memory_budget(parse_memory_size(vm["max-memory"].as<std::string>(), "--max-memory"));
  return true;
}

fs::path platforms_dir() {
  // An installed tlmgpu (cmake --install) has its platforms beside it, in
  // <prefix>/share/tlmgpu/platforms; the build tree's binary (and a program
  // built against the package elsewhere) uses the source tree's.
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share/tlmgpu/platforms";
    if (fs::is_directory(installed, ec)) return installed;
  }
  return fs::path(TLMGPU_SOURCE_DIR) / "platforms";
}

// A path as given, or else a platform name from `tlmgpu list` ("titanv").
std::string resolve_platform(const std::string& arg) {
  std::error_code ec;
  if (fs::exists(arg, ec) || arg.find('/') != std::string::npos) return arg;
  for (const std::string& name : {arg, arg + ".json"}) {
    const fs::path p = platforms_dir() / name;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return arg;
}

unsigned jobs_option(const po::variables_map& vm) {
  const long long j = vm["jobs"].as<long long>();
  // A bound, not a limit anyone should meet: a typo must not fork-bomb.
  if (j < 1 || j > 4096)
    throw UsageError("--jobs: expected 1 to 4096 runs at a time, got " + std::to_string(j));
  return unsigned(j);
}

namespace {

// "k=v" -> (k, v); `what` names the option in the error.
std::pair<std::string, std::string> split_kv(const std::string& s, const char* what) {
  const auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(std::string(what) + " '" + s + "': expected key=value");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

TimingMode parse_timing(const std::string& s) {
  if (s == "functional") return TimingMode::Functional;
  if (s == "lt") return TimingMode::LT;
  if (s == "at") return TimingMode::AT;
  throw UsageError("--timing: expected one of functional, lt, at, got '" + s + "'");
}

uint64_t parse_seed(const std::string& s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size())
    throw UsageError("--seed: expected an unsigned 64-bit integer, got '" + s + "'");
  return v;
}

} // namespace

// Counts are read as text: boost reads "-1" into an unsigned as 4294967295.
uint64_t parse_count(const std::string& s, const char* what, uint64_t min, uint64_t max) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < min || v > max)
    throw UsageError(std::string(what) + ": expected a whole number in [" + std::to_string(min) +
                     ", " + std::to_string(max) + "], got '" + s + "'");
  return v;
}

uint64_t parse_cycles(const std::string& s, const char* what) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size())
    throw UsageError(std::string(what) + ": expected a number of cycles, got '" + s + "'");
  return v;
}

std::vector<std::string> strings(const po::variables_map& vm, const char* key) {
  return vm.count(key) ? vm[key].as<std::vector<std::string>>() : std::vector<std::string>{};
}

void add_platform_options(po::options_description& desc) {
  desc.add_options()                                                         //
      ("platform,p", po::value<std::string>()->required(),                   //
       "platform JSON file (or a name from 'tlmgpu list')")                  //
      ("set", po::value<std::vector<std::string>>()->composing(),            //
       "override a parameter: --set l2.ways=16 (repeatable, each key once)") //
      ("max-memory", po::value<std::string>(),
       "refuse a platform, workload or input whose estimated memory exceeds this (e.g. 8G; "
       "default: half of this machine's RAM)");
}

int cmd_run(const Args& args) {
  po::options_description desc("options");
  add_platform_options(desc);
  desc.add_options()                                                                            //
      ("workload,w", po::value<std::string>()->required(), "workload name (see 'tlmgpu list')") //
      ("arg", po::value<std::vector<std::string>>()->composing(),                               //
       "workload argument: --arg n=4096 (repeatable)")                                          //
      ("input", po::value<std::string>(),                                                       //
       "workload input (file or gen:... spec); same as --arg input=...")                        //
      ("timing", po::value<std::string>()->default_value("lt"), "functional | lt | at")         //
      ("seed", po::value<std::string>()->default_value("1"), "random seed")                     //
      ("out", po::value<std::string>()->default_value("out"), "output directory")               //
      ("quiet", po::bool_switch(), "no summary on stdout")                                      //
      ("trace", po::value<std::string>(), "write a Chrome/Perfetto JSON trace to this file")    //
      ("trace-window", po::value<std::string>(), "trace only cycles START:END (core cycles)")   //
      ("trace-sample", po::value<std::string>()->default_value("1000"),
       "trace counter window, in core cycles") //
      ("check-races", po::bool_switch(),
       "report conflicting accesses no release/acquire at a covering scope orders (HRF "
       "races; functional and lt; any fails the check)") //
      ("kernel-stats", po::value<std::string>()->default_value("metrics"),
       "per-kernel stats: metrics (flat, in stats.json) | full (also each kernel's whole "
       "stats tree, streamed to kernels.jsonl)");
  po::variables_map vm;
  if (!parse("run", "tlmgpu run -p <platform> -w <workload> [options]", args, desc, {}, vm))
    return kExitOk;

  RunOptions opts;
  opts.timing = parse_timing(vm["timing"].as<std::string>());
  opts.seed = parse_seed(vm["seed"].as<std::string>());
  for (const std::string& a : strings(vm, "arg")) {
    auto [k, v] = split_kv(a, "--arg");
    if (!opts.args.emplace(k, v).second) throw UsageError("--arg " + k + " is given twice");
  }
  if (vm.count("input") && !opts.args.emplace("input", vm["input"].as<std::string>()).second)
    throw UsageError("--input and --arg input= are both given");
  opts.platform_path = resolve_platform(vm["platform"].as<std::string>());
  if (is_node_file(opts.platform_path))
    opts.node = load_node(opts.platform_path, strings(vm, "set"));
  else
    opts.platform = load_platform(opts.platform_path, strings(vm, "set"));
  opts.workload = vm["workload"].as<std::string>();
  if (vm["check-races"].as<bool>() && !opts.node.gpus.empty())
    throw UsageError("--check-races: a node platform is not supported (one GPU only)");
  opts.out_dir = vm["out"].as<std::string>();
  opts.quiet = vm["quiet"].as<bool>();
  opts.check_races = vm["check-races"].as<bool>();
  if (opts.check_races && opts.timing == TimingMode::AT)
    throw UsageError("--check-races needs --timing functional or lt (in at a load issued "
                     "before a release can still read its value, so issue order is not the "
                     "order of memory)");
  const std::string ks = vm["kernel-stats"].as<std::string>();
  if (ks != "metrics" && ks != "full")
    throw UsageError("--kernel-stats: expected metrics or full, got '" + ks + "'");
  opts.kernel_stats =
      ks == "full" ? RunOptions::KernelStats::Full : RunOptions::KernelStats::Metrics;
  if (vm.count("trace")) {
    opts.trace.path = vm["trace"].as<std::string>();
    opts.trace.sample_cycles = parse_cycles(vm["trace-sample"].as<std::string>(), "--trace-sample");
    if (opts.trace.sample_cycles == 0) throw UsageError("--trace-sample: must be at least 1");
  }
  if (vm.count("trace-window")) {
    if (!vm.count("trace")) throw UsageError("--trace-window needs --trace FILE");
    const std::string w = vm["trace-window"].as<std::string>();
    const auto colon = w.find(':');
    if (colon == std::string::npos)
      throw UsageError("--trace-window: expected START:END in cycles, got '" + w + "'");
    opts.trace.start = parse_cycles(w.substr(0, colon), "--trace-window START");
    opts.trace.end = parse_cycles(w.substr(colon + 1), "--trace-window END");
    if (opts.trace.end <= opts.trace.start)
      throw UsageError("--trace-window: END must be greater than START, got '" + w + "'");
  }
  return run_simulation(opts, std::cout);
}

int cmd_list(const Args& args) {
  po::options_description desc("options");
  po::variables_map vm;
  if (!parse("list", "tlmgpu list", args, desc, {}, vm)) return kExitOk;

  std::cout << "platforms (" << platforms_dir().string() << "):\n";
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(platforms_dir(), ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) std::cout << "  (none)\n";
  for (const fs::path& f : files) {
    std::string about;
    try {
      about = is_node_file(f.string()) ? load_node(f.string()).description
                                       : load_platform(f.string()).description;
    } catch (const ConfigError& e) {
      about = std::string("(invalid: ") + e.what() + ")";
    }
    std::cout << "  " << std::left << std::setw(20) << f.stem().string() << " " << about << "\n";
  }

  std::cout << "\nworkloads:\n";
  const auto workloads = list_workloads();
  if (workloads.empty()) std::cout << "  (none)\n";
  for (const WorkloadInfo& w : workloads) {
    std::cout << "  " << std::left << std::setw(20) << w.name << " " << w.description << "\n";
    for (const WorkloadArg& a : w.args)
      std::cout << "      --arg " << std::left << std::setw(24) << (a.name + "=" + a.def) << " "
                << a.description << "\n";
  }

  std::cout << "\n";
  list_blocks(std::cout);
  return kExitOk;
}

int cmd_describe(const Args& args) {
  po::options_description desc("options");
  desc.add_options()("block", po::value<std::string>(), "block name (see 'tlmgpu list')");
  po::positional_options_description pos;
  pos.add("block", 1);
  po::variables_map vm;
  if (!parse("describe", "tlmgpu describe <block>", args, desc, pos, vm)) return kExitOk;
  if (!vm.count("block"))
    throw UsageError("describe: missing block name; blocks: " + describable_names());
  describe(vm["block"].as<std::string>(), std::cout);
  return kExitOk;
}

int cmd_config(const Args& args) {
  po::options_description desc("options");
  add_platform_options(desc);
  po::variables_map vm;
  if (!parse("config", "tlmgpu config -p <platform> [--set key=value]...", args, desc, {}, vm))
    return kExitOk;
  const std::string path = resolve_platform(vm["platform"].as<std::string>());
  if (is_node_file(path)) { // each GPU's effective platform
    const NodeSpec node = load_node(path, strings(vm, "set"));
    nlohmann::json j = {{"name", node.name}, {"gpus", nlohmann::json::array()}};
    for (size_t i = 0; i < node.gpus.size(); ++i)
      j["gpus"].push_back(
          {{"platform_file", node.gpu_files[i]}, {"platform", effective_config(node.gpus[i])}});
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << effective_config(load_platform(path, strings(vm, "set"))).dump(2) << "\n";
  return kExitOk;
}

} // namespace tlmgpu::cli
