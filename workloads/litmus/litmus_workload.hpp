// What the litmus workloads (litmus-mp, litmus-rsp, litmus-lock) share: a
// stats group for what their checks count, and a host program that
// uploads its buffers, launches one kernel and downloads what it saw.
#pragma once

#include "tlmgpu/sim/kernel.hpp"
#include "tlmgpu/stats.hpp"
#include "workloads/workload.hpp"

#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace tlmgpu {

class HostModule;

class LitmusWorkload : public Workload {
public:
  ~LitmusWorkload() override;
  void elaborate(SimContext& ctx, GpuModule& gpu) override;
  bool finished() const override;

protected:
  explicit LitmusWorkload(std::string stats_group) : group_(std::move(stats_group)) {}
  virtual void declare_stats(StatGroup& g) = 0; // called first in elaborate
  virtual void program(HostModule& h) = 0;
  // Launches `name` as `ctas` CTAs of `threads` threads and waits for it.
  static void run_kernel(HostModule& h, std::string name, uint32_t ctas, uint32_t threads,
                         std::function<WarpTask(Warp&)> body);
  // The verdict of the promoted tests (litmus-rsp, -lock, -chain): with
  // l1.rsp = none nothing is promoted and `bad` forbidden outcomes are allowed
  // (the negative control; `allowed` ends the summary line), otherwise `bad`
  // must be 0 and the error reads "<bad> <what> with l1.rsp = <rsp>".
  static std::string promotion_verdict(const SimContext& ctx, std::ostream& out, uint64_t bad,
                                       const std::string& what, const std::string& allowed);

private:
  std::string group_;
  std::unique_ptr<StatGroup> stats_;
  std::unique_ptr<HostModule> host_;
};

} // namespace tlmgpu
