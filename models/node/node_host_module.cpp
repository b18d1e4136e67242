#include "models/node/node_host_module.hpp"

using namespace sc_core;

namespace tlmgpu {
namespace {
uint64_t ps_since(const sc_time& t0) {
  return uint64_t((sc_time_stamp() - t0).to_seconds() * 1e12 + 0.5);
}
} // namespace

rt::TaskId NodeDriver::add(rt::TaskSpec t) {
  const rt::TaskId id = rt.add_task(std::move(t), 0);
  host_.progress().notify(SC_ZERO_TIME);
  return id;
}

void NodeDriver::wait(rt::TaskId id) {
  while (!rt.finished(id))
    sc_core::wait(host_.progress());
}

void NodeDriver::wait_all(const std::vector<rt::TaskId>& ids) {
  for (rt::TaskId id : ids)
    wait(id);
}

void NodeDriver::wait_until(const std::function<bool()>& done) {
  while (!done())
    sc_core::wait(host_.progress());
}

void NodeDriver::notify() {
  host_.progress().notify(SC_ZERO_TIME);
}

double NodeDriver::now_seconds() const {
  return sc_time_stamp().to_seconds();
}

uvm::ManagedMemory& NodeDriver::uvm() {
  return host_.uvm();
}

void NodeDriver::issue(uint32_t gpu, rt::StreamOp op) {
  host_.issue(gpu, std::move(op));
}

void NodeDriver::synchronize(uint32_t gpu) {
  host_.wait_stream(gpu);
}

NodeHostModule::NodeHostModule(sc_module_name n, rt::Runtime& rt, uvm::ManagedMemory& uvm,
                               const NodeHostSpec& spec, std::vector<StreamEngineModule*> streams,
                               StatGroup& parent)
    : sc_module(n), rt_(rt), uvm_(uvm), spec_(spec), streams_(std::move(streams)),
      stats_(parent, "host"),
      busy_ps_(stats_.counter("worker_busy_ps", "ps",
                              "worker time spent launching and running tasks, summed")),
      sync_ps_(stats_.counter("sync_ps", "ps", "worker time spent in LC syncs, summed")),
      gc_ps_(stats_.counter("gc_ps", "ps", "worker time spent in sweeps and eviction merges")) {
  for (StreamEngineModule* s : streams_)
    s->progress = &progress_;
  const RuntimeSpec& r = rt.spec();
  if (r.stream_buffering)
    buffer_ = std::make_unique<rt::StreamBuffer>(rt.gpus(), r.buffer_entries, r.buffer_idle_checks,
                                                 parent);
  SC_HAS_PROCESS(NodeHostModule);
  SC_THREAD(driver);
  for (uint32_t w = 0; w < spec.workers; ++w)
    sc_spawn([this, w] { worker(w); }, ("worker_" + std::to_string(w)).c_str());
}

void NodeHostModule::attach_trace(TraceWriter& t, uint32_t pid) {
  trace_ = &t;
  pid_ = pid;
  worker_tid_.clear();
  for (uint32_t w = 0; w < spec_.workers; ++w)
    worker_tid_.push_back(t.track(pid, "host worker " + std::to_string(w)));
}

void NodeHostModule::span(uint32_t w, const std::string& what, const sc_time& t0,
                          const nlohmann::json& args) {
  if (trace_) trace_->span(pid_, worker_tid_.at(w), what, t0, sc_time_stamp(), args);
}

void NodeHostModule::driver() {
  NodeDriver d(*this, rt_);
  if (program) program(d);
  finished_ = true;
}

void NodeHostModule::wait_stream(uint32_t gpu) {
  if (buffer_) flush(gpu, rt::StreamBuffer::Flush::Sync);
  while (!streams_[gpu]->idle())
    wait(streams_[gpu]->drained());
  hold(spec_.sync_us);
}

void NodeHostModule::issue(uint32_t gpu, rt::StreamOp op) {
  op.gpu = gpu;
  op.not_before_s = sc_time_stamp().to_seconds() + spec_.api_us * 1e-6;
  streams_.at(gpu)->push(std::move(op));
  hold(spec_.api_us);
}

bool NodeHostModule::launch_gpu_task(uint32_t w) {
  const auto t = rt_.next_gpu_task(w);
  if (!t) return false;
  const int g = rt_.find_gpu(*t);
  if (!rt_.impossible().empty()) return false; // dropped; the run ends and reports it
  if (g < 0) {
    rt_.retry_later(w, *t);
    return false;
  }
  const sc_time t0 = sc_time_stamp();
  if (rt_.spec().gc == "pre_edt") collect(w, uint32_t(g));
  const sc_time launched = sc_time_stamp();
  std::vector<rt::StreamOp> ops = rt_.launch(*t, uint32_t(g), w);
  const size_t op_count = ops.size();
  size_t misses = 0;
  for (const rt::StreamOp& op : ops)
    misses += op.cause == rt::Cause::Miss ? 1 : 0;
  // Onto the stream at once, in launch order: a task that hits on a copy
  // another task is filling must queue behind that fill (seed-004 §4.3). An
  // operation starts no earlier than the worker has issued it. Buffered, the
  // API calls are made when the buffer is flushed.
  const double setup_us = spec_.edt_us + spec_.malloc_us * double(misses);
  if (buffer_) {
    const bool full = buffer_->add(uint32_t(g), std::move(ops));
    hold(setup_us);
    if (full) flush(uint32_t(g), rt::StreamBuffer::Flush::Full);
  } else {
    const double api_us = spec_.api_us * double(ops.size());
    issue_all(uint32_t(g), std::move(ops), setup_us + api_us);
  }
  busy_ps_ += ps_since(t0);
  span(w, "launch " + rt_.task(*t).name, launched,
       {{"task", *t}, {"gpu", g}, {"operations", op_count}, {"misses", misses}});
  return true;
}

void NodeHostModule::issue_all(uint32_t gpu, std::vector<rt::StreamOp> ops, double issue_us) {
  const double issued_s = sc_time_stamp().to_seconds() + issue_us * 1e-6;
  for (rt::StreamOp& op : ops) {
    op.not_before_s = issued_s;
    streams_[gpu]->push(std::move(op));
  }
  hold(issue_us);
}

void NodeHostModule::flush(uint32_t gpu, rt::StreamBuffer::Flush why) {
  std::vector<rt::StreamOp> ops = buffer_->flush(gpu, why);
  if (ops.empty()) return;
  const double api_us = spec_.api_us * double(ops.size());
  issue_all(gpu, std::move(ops), api_us);
}

// ARTS calls checkStreams from every loop iteration that ran no GPU task.
void NodeHostModule::check_streams() {
  if (!buffer_->check()) return;
  for (uint32_t g = 0; g < streams_.size(); ++g)
    flush(g, rt::StreamBuffer::Flush::Idle);
}

bool NodeHostModule::run_cpu_task(uint32_t w) {
  const auto t = rt_.next_cpu_task(w);
  if (!t) return false;
  const sc_time t0 = sc_time_stamp();
  for (rt::Guid db : rt_.lc_syncs(*t))
    lc_sync(w, db);
  const sc_time ran = sc_time_stamp();
  hold(spec_.edt_us + rt_.task(*t).cpu_us);
  rt_.run_cpu(*t, w);
  progress_.notify(SC_ZERO_TIME);
  busy_ps_ += ps_since(t0);
  span(w, "cpu " + rt_.task(*t).name, ran, {{"task", *t}});
  return true;
}

// The collapse runs on the worker about to run the consuming CPU task and
// blocks it (pitfall 17).
void NodeHostModule::lc_sync(uint32_t w, rt::Guid db) {
  const sc_time t0 = sc_time_stamp();
  const rt::TreePlan plan = rt_.sync_begin(db);
  for (const auto& [root, other] : plan.steps) {
    wait_stream(other); // its copy is final (and merged, if it was a root below)
    if (buffer_) flush(root, rt::StreamBuffer::Flush::Sync); // before a peer copy
    streams_[root]->push(rt_.sync_copy(db, root, other));
    streams_[root]->push(rt_.sync_merge(db, root));
    hold(2 * spec_.api_us);
  }
  const double merge_s = double(rt_.db(db).bytes) / (spec_.merge_gbps * 1e9);
  for (uint32_t root : plan.roots) {
    if (buffer_) flush(root, rt::StreamBuffer::Flush::Sync);
    streams_[root]->push(rt_.sync_to_host(db, root));
    hold(spec_.api_us);
    wait_stream(root);
    wait(sc_time(merge_s, SC_SEC)); // the host merge, serial on this worker
  }
  sync_ps_ += ps_since(t0);
  span(w, "lc sync", t0, {{"db", db}, {"steps", plan.steps.size()}, {"roots", plan.roots.size()}});
}

bool NodeHostModule::collect(uint32_t w, uint32_t gpu) {
  const sc_time t0 = sc_time_stamp();
  const uint64_t before = rt_.available(gpu);
  rt_.sweep(gpu);
  const bool merged = write_back_evictions(w);
  const bool freed = rt_.available(gpu) != before || merged;
  if (freed) {
    hold(spec_.free_us);
    progress_.notify(SC_ZERO_TIME);
  }
  gc_ps_ += ps_since(t0);
  if (freed)
    span(w, "gc gpu " + std::to_string(gpu), t0, {{"freed_bytes", rt_.available(gpu) - before}});
  return freed;
}

// An LC copy leaves a GPU only through the host: every freed one (a sweep,
// a discard with the cache off, a writer elsewhere) is written back and
// merged here, synchronously, before its memory returns (seed-004 §4.5).
bool NodeHostModule::write_back_evictions(uint32_t w) {
  std::vector<rt::StreamOp> evictions = rt_.take_evictions();
  if (evictions.empty()) return false;
  const sc_time t0 = sc_time_stamp();
  const size_t count = evictions.size();
  uint64_t bytes = 0;
  std::vector<bool> used(streams_.size(), false);
  double merge_s = 0;
  for (rt::StreamOp& op : evictions) {
    used[op.gpu] = true;
    merge_s += double(op.bytes) / (spec_.merge_gbps * 1e9);
    bytes += op.bytes;
    streams_[op.gpu]->push(std::move(op));
  }
  for (uint32_t g = 0; g < used.size(); ++g)
    if (used[g]) wait_stream(g);
  wait(sc_time(merge_s, SC_SEC));
  span(w, "evictions", t0, {{"copies", count}, {"bytes", bytes}});
  return true;
}

void NodeHostModule::worker(uint32_t w) {
  while (rt_.impossible().empty()) {
    bool worked = write_back_evictions(w);
    const bool launched = launch_gpu_task(w);
    if (!launched && buffer_) check_streams();
    worked = launched || worked;
    worked = run_cpu_task(w) || worked;
    if (worked || rt_.take_progress()) continue;
    const int g = rt_.take_gc_request();
    if (g >= 0 && rt_.spec().gc == "on_demand" && collect(w, uint32_t(g))) continue;
    if (rt_.spec().gc == "idle" && collect(w, uint32_t(idle_sweep_++ % rt_.gpus()))) continue;
    // A real worker spins; with operations buffered its checkStreams calls
    // are what eventually flushes them, so it spins here too.
    if (buffer_ && buffer_->any()) {
      hold(spec_.idle_loop_us);
      continue;
    }
    wait(progress_);
  }
}

} // namespace tlmgpu
