#include "workloads/random_traffic/random_traffic.hpp"

#include "models/gpu/gpu_module.hpp"
#include "models/traffic/traffic_module.hpp"

#include <sstream>

namespace tlmgpu {

namespace {

class RandomTraffic : public Workload {
public:
  explicit RandomTraffic(const WorkloadArgs& a) {
    p_.requests = a.u64("requests", 1, 1ull << 40);
    p_.footprint = uint32_t(a.u64("footprint", 128, 1ull << 30));
    p_.outstanding = uint32_t(a.u64("outstanding", 1, 1024));
    p_.load_pct = uint32_t(a.u64("load_pct", 0, 100));
    p_.store_pct = uint32_t(a.u64("store_pct", 0, 100));
    p_.atomic_pct = uint32_t(a.u64("atomic_pct", 0, 100));
    p_.shared_pct = uint32_t(a.u64("shared_pct", 0, 100));
    generators_ = uint32_t(a.u64("generators", 0, 1 << 20));
    p_.inject_fault = a.u64("inject_fault", 0, 1) != 0;
    p_.comm_floats = a.u64("comm_floats", 0, 1) != 0;
    if (p_.load_pct + p_.store_pct + p_.atomic_pct > 100)
      throw ConfigError(
          "random-traffic: load_pct + store_pct + atomic_pct must be <= 100 (the rest is red)");
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    const uint32_t sms = ctx.platform.sm.count;
    if (generators_ > sms) // was silently capped: a count is checked against what it counts
      throw ConfigError("workload argument generators: " + std::to_string(generators_) +
                        " is more than the platform's " + std::to_string(sms) +
                        " SMs (one generator per SM; 0 = every SM)");
    if (generators_ == 0) generators_ = sms;
    // Regions are 1 MiB apart, so they spread over channels and slices.
    const Addr region_stride = std::max<Addr>(1 << 20, Addr(p_.footprint) * 2);
    shared_ = Addr(generators_) * region_stride + 64;
    for (uint32_t g = 0; g < generators_; ++g) {
      gens_.push_back(std::make_unique<TrafficModule>(("traffic_" + std::to_string(g)).c_str(), ctx,
                                                      g, p_, Addr(g) * region_stride, shared_, log_,
                                                      ctx.stats, ctx.platform.sm.clock_mhz));
      gens_.back()->port.socket.bind(gpu.sms[g]->lsu());
    }
  }

  bool finished() const override {
    for (auto& g : gens_)
      if (!g->finished()) return false;
    return true;
  }

  std::string check(SimContext& ctx, GpuModule& gpu, std::ostream& out) override {
    uint64_t mismatches = 0, issued = 0;
    std::string first;
    for (auto& g : gens_) {
      mismatches += g->mismatches();
      if (g->issued() != g->completed() && first.empty())
        first = std::string(g->name()) + ": issued " + std::to_string(g->issued()) +
                " but completed " + std::to_string(g->completed());
      if (first.empty()) first = g->first_error();
    }
    // Final memory image: every byte of every private region, read through
    // L2 (newest data) after the L1s wrote back, must equal the reference.
    gpu.flush_l1s();
    const unsigned line = ctx.platform.l2.line_bytes;
    std::vector<uint8_t> dev(line), ref(line);
    uint64_t bad_lines = 0;
    for (auto& g : gens_) {
      const TrafficCore& c = g->core();
      for (Addr a = c.base(); a < c.base() + c.footprint(); a += line) {
        gpu.debug_read(a, dev.data(), line);
        c.reference().read(a, ref.data(), line);
        if (dev != ref) {
          ++bad_lines;
          if (first.empty()) {
            std::ostringstream os;
            os << "final memory: line 0x" << std::hex << a << " differs from the reference";
            first = os.str();
          }
        }
      }
    }
    uint32_t counter = 0;
    gpu.debug_read(shared_, reinterpret_cast<uint8_t*>(&counter), 4);
    std::string shared = log_.verify(counter);
    if (first.empty()) first = shared;
    for (auto& g : gens_)
      issued += g->core().footprint() ? 1 : 0;
    out << "random-traffic: " << gens_.size() << " generators x " << p_.requests << " requests, "
        << mismatches << " value mismatches, " << bad_lines << " wrong lines in final memory, "
        << "shared counter " << counter << (shared.empty() ? " (ok)" : " (WRONG)") << "\n";
    (void)issued;
    return first;
  }

private:
  TrafficParams p_;
  uint32_t generators_ = 0;
  Addr shared_ = 0;
  SharedCounterLog log_;
  std::vector<std::unique_ptr<TrafficModule>> gens_;
};

} // namespace

WorkloadEntry random_traffic_workload() {
  WorkloadInfo info{
      "random-traffic",
      "seeded random loads/stores/atomics/reds of every op and type through the L1s, "
      "every value checked against a reference memory",
      {{"requests", "2000", "requests per generator"},
       {"generators", "0", "generators, one per SM from SM 0 (0 = one per SM)"},
       {"footprint", "16384", "bytes of private region per generator"},
       {"outstanding", "8", "requests in flight per generator (AT)"},
       {"load_pct", "40", "percent loads"},
       {"store_pct", "25", "percent stores"},
       {"atomic_pct", "25", "percent value-returning atomics (rest: red)"},
       {"shared_pct", "5", "percent of atomics that hit the shared contended counter"},
       {"inject_fault", "0", "1 = corrupt one reference byte on purpose (the check must fail)"},
       {"comm_floats", "1",
        "0 = float add/sub atomics and reds are relaxed, never commutative (l1.atomic_mode = "
        "phi and the LAB reassociate commutative float sums, which the exact check rejects)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<RandomTraffic>(a); }};
}

} // namespace tlmgpu
