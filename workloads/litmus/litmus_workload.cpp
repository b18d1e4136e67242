#include "workloads/litmus/litmus_workload.hpp"

#include "models/host/host_module.hpp"

namespace tlmgpu {

LitmusWorkload::~LitmusWorkload() = default;

void LitmusWorkload::elaborate(SimContext& ctx, GpuModule& gpu) {
  stats_ = std::make_unique<StatGroup>(ctx.stats, group_);
  declare_stats(*stats_);
  host_ = std::make_unique<HostModule>("host", ctx, gpu);
  host_->program = [this](HostModule& h) { program(h); };
}

bool LitmusWorkload::finished() const {
  return host_ && host_->finished();
}

void LitmusWorkload::run_kernel(HostModule& h, std::string name, uint32_t ctas, uint32_t threads,
                                std::function<WarpTask(Warp&)> body) {
  KernelLaunch k;
  k.name = std::move(name);
  k.grid = {ctas, 1, 1};
  k.block = {threads, 1, 1};
  k.body = std::move(body);
  h.launch(std::move(k));
  h.synchronize();
}

std::string LitmusWorkload::promotion_verdict(const SimContext& ctx, std::ostream& out,
                                              uint64_t bad, const std::string& what,
                                              const std::string& allowed) {
  const std::string& rsp = ctx.platform.l1.rsp; // a platform's l1.rsp is never empty
  if (rsp == "none") {
    out << " (no promotion: " << allowed << " allowed)\n";
    return "";
  }
  out << "\n";
  return bad ? std::to_string(bad) + " " + what + " with l1.rsp = " + rsp : "";
}

} // namespace tlmgpu
