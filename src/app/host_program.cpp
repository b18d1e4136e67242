#include "tlmgpu/app/host_program.hpp"

namespace tlmgpu {

ProgramResult run_host_program(const PlatformSpec& platform, TimingMode mode, uint64_t seed,
                               const std::function<void(HostModule&)>& program) {
  prepare_kernel(platform);
  SimContext ctx(platform, mode, seed);
  ctx.run.keep_kernel_stats = true; // in-process callers read the trees
  GpuModule gpu("gpu", ctx);
  HostModule host("host", ctx, gpu);
  host.program = program;
  simulate();
  if (!host.finished())
    throw SimError("simulation ended before the host program finished (deadlock: no event "
                   "left); what waits:" +
                   gpu.waits());
  ProgramResult r;
  ctx.stats.dump(r.stats["total"], StatView::Total, true);
  r.stats["kernels"] = ctx.kernels.to_json();
  r.cycles = Clock(platform.sm.clock_mhz).at(sc_core::sc_time_stamp());
  return r;
}

} // namespace tlmgpu
