// `latency`: the unloaded load-latency microbenchmark (models/traffic/latency_probe).
#include "models/gpu/gpu_module.hpp"
#include "models/traffic/latency_probe_module.hpp"
#include "workloads/random_traffic/random_traffic.hpp"

namespace tlmgpu {

namespace {

class Latency : public Workload {
public:
  explicit Latency(const WorkloadArgs& a) : address_(a.u64("address", 0, 1ull << 48)) {}
  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    probe_ = std::make_unique<LatencyProbe>("latency_probe", ctx, gpu.sms[0]->l1, address_,
                                            ctx.stats, ctx.platform.sm.clock_mhz);
    probe_->port.socket.bind(gpu.sms[0]->lsu());
  }
  bool finished() const override { return probe_->finished(); }
  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override {
    out << "load latency (SM cycles, unloaded): L1 hit " << probe_->l1_hit << ", L2 hit "
        << probe_->l2_hit << ", DRAM " << probe_->dram;
    if (probe_->dram_row_hit) out << ", DRAM row hit " << probe_->dram_row_hit;
    out << "\n";
    if (!ctx.timed()) return "";
    if (!(probe_->l1_hit < probe_->l2_hit && probe_->l2_hit < probe_->dram))
      return "latencies are not ordered L1 < L2 < DRAM";
    return "";
  }

private:
  Addr address_;
  std::unique_ptr<LatencyProbe> probe_;
};

} // namespace

WorkloadEntry latency_workload() {
  WorkloadInfo info{"latency",
                    "unloaded load latency of an L1 hit, an L2 hit and a DRAM access from SM 0",
                    {{"address", "1048576", "byte address probed"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<Latency>(a); }};
}

} // namespace tlmgpu
