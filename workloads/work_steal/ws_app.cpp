#include "workloads/work_steal/ws_app.hpp"

#include "models/host/host_module.hpp"
#include "tlmgpu/params.hpp"
#include "tlmgpu/platform.hpp"
#include "tlmgpu/sim/kernel.hpp"

namespace tlmgpu::work_steal {

namespace {

// A persistent CTA: lane 0 of warp 0 takes the CTA's next task and hands
// it to the other warps through shared memory (two slots used in turn, so
// one barrier per task suffices: a warp can rewrite a slot only after every
// warp passed the barrier behind the read of it); the CTA exits together
// when the task is kNoTask. Task t covers `lanes` blocks of vertices from
// t * lanes * block, warp j taking [j * width, (j + 1) * width) of each.
WarpTask task_loop(Warp& w, Queues q, uint32_t n, uint32_t lanes, WsGraphApp::VertexFn fn) {
  Cursor c;
  c.home = c.victim = uint32_t(w.cta_linear() % q.count);
  const Mask one = Mask::lane(0);
  const uint64_t width = w.lane_count(), block = w.block_dim().count();
  if (w.warp_in_cta() == 0) co_await register_near(w, q, c.home);
  for (uint32_t round = 0;; ++round) {
    const Lanes<Addr> slot(Addr(round & 1) * sizeof(uint64_t));
    if (w.warp_in_cta() == 0) {
      int64_t task = kNoTask;
      co_await next_task(w, q, c, task);
      co_await w.shared_store<uint64_t>(slot, Lanes<uint64_t>(uint64_t(task)), one);
    }
    co_await w.barrier();
    const int64_t task = int64_t((co_await w.shared_load<uint64_t>(slot, one))[0]);
    if (task == kNoTask) co_return;
    for (uint64_t k = 0; k < lanes; ++k) {
      const uint64_t first = (uint64_t(task) * lanes + k) * block + w.warp_in_cta() * width;
      const Lanes<uint64_t> v = Lanes<uint64_t>(first) + lane_index().as<uint64_t>();
      const Mask m = w.active() & (v < Lanes<uint64_t>(n));
      if (m.empty()) break;
      co_await fn(w, v.as<uint32_t>(), m);
    }
  }
}

} // namespace

std::vector<WorkloadArg> ws_args(std::vector<WorkloadArg> extra) {
  std::vector<WorkloadArg> a = {
      {"scenario", "baseline",
       "baseline (no stealing, device-scope dequeues) | steal-only (device scope, stealing) | "
       "scope-only (CTA-scope dequeues, no stealing) | rsp (CTA-scope dequeues, thieves use "
       "remote-scope-promoted CAS; needs l1.rsp)"},
      {"queues", "0", "task queues = persistent CTAs (0: one per SM)"},
      {"task_lanes", "1", "vertices per thread in a task (a task is block x this vertices)"},
      {"victims", "ring",
       "where a thief looks: ring (the other queues round robin from the last victim) | near "
       "(first the queues of CTAs on its own SM, found by %smid, then the ring)"},
      {"termination", "scan",
       "how a thief knows every queue is empty: scan (it probes each other queue once) | counter "
       "(a device-scope count of emptied queues, read before and during a scan)"}};
  a.insert(a.end(), extra.begin(), extra.end());
  return graph_apps::graph_args(std::move(a));
}

WsGraphApp::WsGraphApp(std::string name, const WorkloadArgs& a, bool weighted)
    : GraphApp(std::move(name), a, true, weighted) {
  scenario_ = parse_scenario(a.str("scenario"));
  queues_ = uint32_t(a.u64("queues", 0, 1u << 16));
  task_lanes_ = uint32_t(a.u64("task_lanes", 1, 1u << 16));
  victims_ = parse_victim_order(a.str("victims"));
  counter_ = parse_termination(a.str("termination"));
}

void WsGraphApp::elaborate(SimContext& ctx, GpuModule& gpu) {
  const PlatformSpec& p = ctx.platform;
  if (scenario_ == Scenario::Rsp && p.l1.rsp == "none")
    throw ConfigError("workload argument scenario: rsp needs remote scope promotion in the L1 "
                      "(--set l1.atomic_mode=scoped --set l1.rsp=brsp, or srsp)");
  if (queues_ == 0) queues_ = p.sm.count;
  sms_ = p.sm.count;
  line_bytes_ = p.l1.line_bytes;
  stats_ = std::make_unique<StatGroup>(ctx.stats, name_);
  tally_.owner_takes = &stats_->counter("owner_takes", "tasks",
                                        "tasks the warps of a queue's own CTA took (at its tail)");
  tally_.steals = &stats_->counter("steals", "tasks", "tasks taken from another CTA's queue");
  tally_.near_steals = &stats_->counter(
      "near_steals", "tasks", "steals from a queue of a CTA on the thief's SM (victims=near)");
  tally_.probes =
      &stats_->counter("probes", "reads", "thieves' acquire reads of other queues' words");
  tally_.count_reads = &stats_->counter(
      "count_reads", "reads", "thieves' reads of the empty-queue count (termination=counter)");
  tally_.cas_failures =
      &stats_->counter("cas_failures", "CAS", "queue CAS operations that lost a race and retried");
  GraphApp::elaborate(ctx, gpu);
}

void WsGraphApp::launch_tasks(HostModule& h, const std::string& kernel, VertexFn fn) {
  const uint32_t n = uint32_t(graph_.num_vertices());
  const uint64_t task_vertices = uint64_t(block_) * task_lanes_;
  if (launches_ == 0)
    q_ = make_queues(h, queues_, uint32_t((n + task_vertices - 1) / task_vertices), line_bytes_,
                     scenario_, &tally_, victims_, sms_, counter_);
  fill(h, q_);
  ++launches_;
  KernelLaunch k;
  k.name = kernel;
  k.grid = {q_.count, 1, 1};
  k.block = {block_, 1, 1};
  k.shared_bytes = 2 * sizeof(uint64_t); // the task slots
  k.body = [q = q_, n, lanes = task_lanes_, fn](Warp& w) { return task_loop(w, q, n, lanes, fn); };
  h.launch(std::move(k));
  h.synchronize(); // the next fill rewrites the words
}

std::string WsGraphApp::check(SimContext& ctx, GpuModule& gpu, std::ostream& out) {
  if (std::string e = check_runs(tally_, launches_); !e.empty()) return e;
  return GraphApp::check(ctx, gpu, out);
}

std::string WsGraphApp::ws_summary() const {
  return std::string(", scenario ") + scenario_name(scenario_) + ", " + std::to_string(queues_) +
         " queues, " + std::to_string(tally_.steals ? tally_.steals->value() : 0) + " steals";
}

} // namespace tlmgpu::work_steal
