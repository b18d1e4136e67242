// Shared base of the work-stealing graph workloads (ws-pagerank, ws-sssp,
// ws-clr, ws-mis):
// the sRSP paper's benchmarks (seed-002 §4), in which each kernel is one
// persistent CTA per task queue that loops over tasks (chunks of vertex
// ids) taken from the queues of ws_queue.hpp: one thread takes the task for
// the whole CTA, as the paper's work-groups do. The `scenario`
// argument picks the paper's configuration; the platform's l1.rsp picks
// bRSP or sRSP for scenario=rsp.
//
// Arguments (besides the graph ones): scenario, queues (0 = one per SM, as
// the paper's 64 queues on 64 CUs), task_lanes (vertices per thread in one
// task: a task is block x task_lanes consecutive vertices), victims (ring,
// or near: same-SM queues first), termination (scan or counter).
// Statistics in the workload's group: owner_takes, steals, probes,
// cas_failures. Every task must run exactly once per launch, or the check
// fails (the queue's correctness, beside the CPU reference of the result).
#pragma once

#include "workloads/graph_apps/graph_app.hpp"
#include "workloads/work_steal/ws_queue.hpp"

#include <memory>
#include <utility>

namespace tlmgpu::work_steal {

// The buffers of a kernel run in double-buffered rounds (run_rounds): it
// reads `in` (the previous round's values), writes `out`, and raises `flag`
// while work is left; `round` is 1-based.
struct RoundBuffers {
  Addr in = 0, out = 0, flag = 0;
  uint32_t round = 0;
};

// graph_args plus scenario, queues and task_lanes, then `extra`.
std::vector<WorkloadArg> ws_args(std::vector<WorkloadArg> extra = {});

class WsGraphApp : public graph_apps::GraphApp {
public:
  void elaborate(SimContext& ctx, GpuModule& gpu) override;
  std::string check(SimContext& ctx, GpuModule& gpu, std::ostream& out) override;

  // What a warp does with the vertices of one task: lanes m of v (< n).
  using VertexFn = std::function<WarpTask(Warp&, Lanes<uint32_t>, Mask)>;

protected:
  WsGraphApp(std::string name, const WorkloadArgs& a, bool weighted);

  // Fills the queues (allocated at the first call) and launches `kernel` as
  // one CTA per queue; each warp runs fn on its part of every task its CTA
  // takes. Returns when the kernel is done.
  void launch_tasks(HostModule& h, const std::string& kernel, VertexFn fn);
  // Rounds of `kernel(w, a, v, m)` as a work-stealing kernel until a round
  // raises no flag (converged_) or iteration_cap() rounds ran; `in` and
  // `out` swap after each, so a.in holds the last round's values at the end.
  // Args derives from RoundBuffers.
  template <class Args>
  void run_rounds(HostModule& h, const std::string& name, Args& a,
                  WarpTask (*kernel)(Warp&, Args, Lanes<uint32_t>, Mask)) {
    a.flag = make_flag(h);
    converged_ = false;
    for (uint64_t r = 1; r <= iteration_cap(); ++r) {
      a.round = uint32_t(r);
      clear_flag(h, a.flag);
      launch_tasks(h, name,
                   [a, kernel](Warp& w, Lanes<uint32_t> v, Mask m) { return kernel(w, a, v, m); });
      iterations_ = r;
      std::swap(a.in, a.out);
      if (!read_flag(h, a.flag)) {
        converged_ = true;
        return;
      }
    }
  }
  // ", scenario X, N queues, S steals" for extra_summary().
  std::string ws_summary() const;

  Scenario scenario_ = Scenario::Baseline;

private:
  uint32_t queues_ = 0, task_lanes_ = 1, line_bytes_ = 128, sms_ = 0;
  VictimOrder victims_ = VictimOrder::Ring;
  bool counter_ = false; // termination=counter
  std::unique_ptr<StatGroup> stats_;
  Tally tally_;
  Queues q_;
  uint64_t launches_ = 0;
};

} // namespace tlmgpu::work_steal
