// run_simulation: elaborate the GPU and one workload, simulate, check, and
// write stats.json + config.json. Everything the user can get wrong is
// checked before elaboration (--out first: a run must not end in a directory
// it cannot write); everything that goes wrong inside SystemC comes back as
// one SimError line, never a report dump or an abort. The outputs appear
// all at once or not at all (tlmgpu/result_dir.hpp).
#include "tlmgpu/app/run.hpp"
#include "run_files.hpp"
#include "tlmgpu/app/summary.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/metrics.hpp"
#include "tlmgpu/sim/context.hpp"
#include "workloads/workload.hpp"

#include "models/gpu/gpu_blocks.hpp"
#include "models/gpu/gpu_module.hpp"
#include "models/lab/lab_core.hpp"
#include "models/race/race_checker.hpp"

#include "tlmgpu/sim/builder.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sys/resource.h>

using namespace sc_core;

namespace tlmgpu {

int run_simulation(const RunOptions& o, std::ostream& out) {
  if (!o.node.gpus.empty()) return run_node(o, out);
  ResultDir dir(o.out_dir);
  // Everything the user controls is validated before the kernel starts.
  const WorkloadEntry& entry = find_workload(o.workload);
  WorkloadArgs args(entry.info, o.args);
  std::unique_ptr<Workload> workload = entry.make(args);
  try { // stage types are known only here, not to the config reader
    register_gpu_blocks();
    path_stages(o.platform); // unknown types, and types the platform cannot have
  } catch (const ConfigError& e) {
    throw ConfigError(o.platform_path.empty() ? e.what() : o.platform_path + ": " + e.what());
  }

  check_platform_memory(o.platform, o.platform_path);
  prepare_kernel(o.platform);
  SimContext ctx(o.platform, o.timing, o.seed);
  ctx.out_dir = dir.staging().string();
  ctx.result_dir = o.out_dir;
  std::unique_ptr<TraceWriter> trace = open_trace(o, dir, o.platform);
  ctx.run.trace = trace.get();
  std::unique_ptr<KernelLog> kernel_log = open_kernel_log(o, dir, ctx.run);
  GpuModule gpu("gpu", ctx);
  workload->elaborate(ctx, gpu);
  if (trace) gpu.attach_trace(*trace);
  std::unique_ptr<RaceChecker> races;
  if (o.check_races) {
    races = std::make_unique<RaceChecker>();
    gpu.attach_probe(*races);
  }

  const auto t0 = std::chrono::steady_clock::now();
  simulate();
  const double host_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!workload->finished())
    throw SimError("simulation ended before the workload finished (deadlock: no event left); "
                   "what waits:" +
                   gpu.waits());

  std::ostringstream summary;
  std::string error = workload->check(ctx, gpu, summary);
  if (races) {
    std::string lines;
    for (const RaceChecker::Race& r : races->races())
      lines += RaceChecker::describe(r) + "\n";
    write_text(dir, "races.txt", lines);
    summary << "races: " << races->count() << " racing words"
            << (races->count()
                    ? " (races.txt lists the first " + std::to_string(races->races().size()) + ")"
                    : "")
            << "\n";
    if (races->count() && error.empty())
      error = std::to_string(races->count()) + " racing words (--check-races), the first: " +
              RaceChecker::describe(races->races().front());
  }
  const Clock core(o.platform.sm.clock_mhz);
  const Cycle cycles = core.at(sc_time_stamp());

  nlohmann::json stats;
  stats["tlmgpu_version"] = TLMGPU_VERSION;
  stats["platform"] = o.platform.name;
  stats["workload"] = o.workload;
  stats["timing"] = std::string(to_string(o.timing));
  stats["seed"] = o.seed;
  stats["check"] = error.empty() ? "passed" : "failed";
  stats["output_hash"] = hash_hex(ctx.outputs.value());
  if (races) stats["races"] = races->count();
  stats["simulated"] = {{"cycles", cycles}, {"seconds", sc_time_stamp().to_seconds()}};
  {
    nlohmann::json plain; // values only, as in the kernel sections
    ctx.stats.dump(plain, StatView::Total, false);
    const nlohmann::json& g = gpu_section(plain);
    stats["metrics"] =
        compute_metrics(g, run_cycles(g, o.platform), o.platform, sc_time_stamp().to_seconds());
    add_area_metrics(stats["metrics"], g, o.platform);
  }
  // "total" straight from the stats, one section per kernel (epoch view)
  // at a time: neither is ever a tree.
  write_json(dir, "stats.json", stats, {total_stats(ctx.stats), kernel_sections(ctx.kernels)});
  if (trace) trace->finish();
  if (kernel_log) kernel_log->finish();

  nlohmann::json config;
  config["tlmgpu_version"] = TLMGPU_VERSION;
  config["platform_file"] = o.platform_path;
  config["platform"] = effective_config(o.platform);
  config["workload"] = {{"name", o.workload}, {"args", args.values()}};
  config["timing"] = std::string(to_string(o.timing));
  config["seed"] = o.seed;
  write_json(dir, "config.json", config);
  // The instantiated graph (`tlmgpu topology --dot`), for the report.
  write_text(dir, "topology.dot",
             topology_dot(expand_platform_topology(o.platform), o.platform.name));

  write_host_json(dir, host_s, cycles);
  dir.commit();

  if (!o.quiet) {
    out << summary.str();
    if (o.platform.lab.enabled() && o.platform.lab.mode != "strict") // optimistic: say so
      out << "lab: " << LabCore::mode_label(o.platform.lab) << "\n";
    for (size_t i = 0; i < ctx.kernels.size(); ++i)
      out << summarize_kernel(ctx.kernels.at(i), o.platform.sm.clock_mhz);
    out << summarize_units(stats["metrics"]);
    print_run_footer(out, o, "core cycles", cycles, host_s, o.platform.name,
                     error.empty() ? "passed" : "FAILED: " + error);
  }
  return error.empty() ? 0 : 1;
}

} // namespace tlmgpu
