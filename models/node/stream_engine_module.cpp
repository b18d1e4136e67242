#include "models/node/stream_engine_module.hpp"
#include "models/node/kernel_time.hpp"
#include "models/node/node_gpu_module.hpp"

using namespace sc_core;

namespace tlmgpu {

namespace {
uint64_t ps_since(const sc_time& t0) {
  return uint64_t((sc_time_stamp() - t0).to_seconds() * 1e12 + 0.5);
}
} // namespace

StreamEngineModule::StreamEngineModule(sc_module_name n, uint32_t gpu, const GpuTimeSpec& time,
                                       double callback_us, uint32_t streams, StatGroup& parent)
    : sc_module(n), fabric("fabric"), gpu_(gpu), time_(time), callback_us_(callback_us),
      multi_(streams > 1), copies_free_(time.copy_engines),
      stats_(parent, "stream_" + std::to_string(gpu)),
      ops_run_(stats_.counter("ops", "ops", "stream operations run")),
      busy_ps_(stats_.counter("busy_ps", "ps", "time the stream was running an operation")),
      copy_ps_(stats_.counter("copy_ps", "ps", "time in copies (H2D, D2H, P2P)")),
      kernel_ps_(stats_.counter("kernel_ps", "ps", "time in kernels and memsets")),
      fault_ps_(stats_.counter("fault_ps", "ps",
                               "managed-memory kernels: time stalled for fault batches")),
      migrate_ps_(stats_.counter("migrate_ps", "ps",
                                 "managed-memory kernels: time migrating pages (in kernel_ps)")) {
  // Declared with several streams only: one stream's stats.json stays as it was.
  if (multi_) {
    active_ps_ = &stats_.counter("active_ps", "ps", "time at least one stream ran an operation");
    overlap_ps_ = &stats_.counter("overlap_ps", "ps", "time two or more streams ran operations");
    copy_kernel_ps_ = &stats_.counter("copy_kernel_overlap_ps", "ps",
                                      "time a copy and a kernel (or memset) ran at once");
    if (time.concurrent_kernels > 1)
      kernels_overlap_ps_ = &stats_.counter("kernels_overlap_ps", "ps",
                                            "time two or more kernels (or memsets) ran at once");
  }
  for (uint32_t k = 0; k < streams; ++k) {
    lanes_.push_back(std::make_unique<Lane>());
    if (!multi_) continue;
    Lane& l = *lanes_.back();
    l.stats = std::make_unique<StatGroup>(stats_, "s" + std::to_string(k));
    l.ops_run = &l.stats->counter("ops", "ops", "operations this stream ran");
    l.busy_ps = &l.stats->counter("busy_ps", "ps", "time this stream ran an operation");
    l.dep_wait_ps = &l.stats->counter(
        "dep_wait_ps", "ps", "time its next operation waited for another stream (fill, join)");
    l.copy_wait_ps =
        &l.stats->counter("copy_wait_ps", "ps", "time its next copy waited for a copy engine");
    l.kernel_wait_ps =
        &l.stats->counter("kernel_wait_ps", "ps",
                          "time its next kernel or memset waited for the GPU's kernel engine");
  }
  SC_HAS_PROCESS(StreamEngineModule);
  SC_THREAD(run0);
  for (uint32_t k = 1; k < streams; ++k)
    sc_spawn([this, k] { run(k); }, ("s" + std::to_string(k)).c_str());
}

void StreamEngineModule::attach_trace(TraceWriter& t, uint32_t pid) {
  trace_ = &t;
  pid_ = pid;
  for (size_t k = 0; k < lanes_.size(); ++k)
    lanes_[k]->tid = t.track(pid, "gpu_" + std::to_string(gpu_) + " stream" +
                                      (multi_ ? " " + std::to_string(k) : ""));
}

void StreamEngineModule::push(rt::StreamOp op) {
  if (op.stream >= lanes_.size())
    throw SimError(std::string(name()) + ": an operation for stream " + std::to_string(op.stream) +
                   " of " + std::to_string(lanes_.size()));
  Lane& l = *lanes_[op.stream];
  Queued q;
  if (op.join)
    for (const auto& o : lanes_)
      q.after.push_back(o->pushed);
  q.op = std::move(op);
  ++l.pushed;
  l.ops.push_back(std::move(q));
  l.added.notify(SC_ZERO_TIME);
}

bool StreamEngineModule::idle() const {
  for (const auto& l : lanes_)
    if (!l->ops.empty() || l->busy) return false;
  return true;
}

// A copy between the GPU `end` (this one, or for a wave's copies the GPU a
// D2H leaves or a P2P goes to) and the host or the GPU `peer`.
void StreamEngineModule::copy(rt::OpKind kind, uint32_t end, uint32_t peer, uint32_t memory,
                              uint64_t bytes) {
  FabricTransfer x;
  x.bytes = bytes;
  x.memory = memory;
  x.gpu = end;
  x.peer = peer;
  x.route = kind == rt::OpKind::H2D   ? FabricTransfer::Route::HostToGpu
            : kind == rt::OpKind::D2H ? FabricTransfer::Route::GpuToHost
                                      : FabricTransfer::Route::Peer;
  transport(x);
}

template <class Ext>
void StreamEngineModule::transport(Ext& x) {
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_IGNORE_COMMAND);
  t.set_data_length(0);
  t.set_extension(&x);
  sc_time delay = SC_ZERO_TIME;
  fabric->b_transport(t, delay);
  t.clear_extension(&x);
  if (t.get_response_status() != tlm::TLM_OK_RESPONSE)
    SC_REPORT_ERROR(name(), "the fabric refused a copy");
}

// A kernel on managed memory: its launch, then each wave's fault stall, its
// page migrations over the fabric and its work, during which its remote
// accesses (pages pinned elsewhere) cross the fabric, every source at once;
// the wave ends when both are done. The source decides a wave's faults when
// the wave starts, so the GPUs' waves see each other's migrations in time
// order.
void StreamEngineModule::managed_kernel(const rt::StreamOp& op) {
  wait(sc_time(time_.launch_us, SC_US));
  rt::Wave w;
  while (op.waves(w, sc_time_stamp().to_seconds())) {
    const sc_time t0 = sc_time_stamp();
    if (w.stall_s > 0) wait(sc_time(w.stall_s, SC_SEC));
    const sc_time t1 = sc_time_stamp();
    for (const rt::Wave::Copy& c : w.copies)
      copy(c.kind,
           c.kind == rt::OpKind::D2H ? c.peer
           : c.to >= 0               ? uint32_t(c.to)
                                     : gpu_,
           c.peer, c.memory, c.bytes);
    fault_ps_ += uint64_t((t1 - t0).to_seconds() * 1e12 + 0.5);
    migrate_ps_ += uint64_t((sc_time_stamp() - t1).to_seconds() * 1e12 + 0.5);
    const double work = work_seconds(time_, w.work);
    if (w.remote.empty()) {
      wait(sc_time(work, SC_SEC));
    } else {
      const sc_time t2 = sc_time_stamp();
      remote(w.remote);
      const double spent = (sc_time_stamp() - t2).to_seconds();
      if (work > spent) wait(sc_time(work - spent, SC_SEC));
    }
    w = rt::Wave();
  }
}

// The remote accesses of a wave, one fabric bundle: each source's bytes
// move at the same time, sharing links with every other copy.
void StreamEngineModule::remote(const std::vector<rt::Wave::Copy>& copies) {
  FabricBundle b;
  for (const rt::Wave::Copy& c : copies) {
    FabricTransfer x;
    x.bytes = c.bytes;
    x.memory = c.memory;
    x.gpu = gpu_;
    x.peer = c.peer;
    x.route =
        c.kind == rt::OpKind::H2D ? FabricTransfer::Route::HostToGpu : FabricTransfer::Route::Peer;
    b.copies.push_back(x);
  }
  transport(b);
}

// A task's kernel on the full GPU model: the launch as on the kernel-time
// model (the host-side launch the GPU model does not time), then the real
// kernel on the blocks' bytes; its result is in the blocks, so `effect` (the
// CPU body) does not run. The runtime's own kernels (LC merges) and
// memsets stay on the kernel-time model.
void StreamEngineModule::device_kernel(const rt::StreamOp& op) {
  if (op.waves || !op.kernel || !op.views)
    throw SimError(std::string(name()) + ": a task kernel without a real kernel on a full GPU " +
                   "model (gpu_model.kind = full)");
  wait(sc_time(time_.launch_us, SC_US));
  rt::Views blocks = op.views();
  device_->run(*op.kernel, blocks);
}

StreamEngineModule::Engine StreamEngineModule::engine_of(rt::OpKind k) {
  switch (k) {
  case rt::OpKind::H2D:
  case rt::OpKind::D2H:
  case rt::OpKind::P2P:
    return Engine::Copy;
  case rt::OpKind::Memset:
  case rt::OpKind::Kernel:
    return Engine::Kernel;
  case rt::OpKind::Callback:
    break;
  }
  return Engine::None;
}

bool StreamEngineModule::may_start(const Queued& q) const {
  for (size_t k = 0; k < q.after.size(); ++k)
    if (lanes_[k]->done < q.after[k]) return false;
  return !q.op.ready || q.op.ready();
}

bool StreamEngineModule::shares(const rt::StreamOp& op) const {
  if (!multi_ || time_.concurrent_kernels < 2) return false;
  if (op.kind == rt::OpKind::Memset) return true;
  return op.kind == rt::OpKind::Kernel && !op.waves &&
         !(device_ && (op.kernel || op.cause == rt::Cause::Task));
}

void StreamEngineModule::acquire(Engine e, Lane& l, bool shared) {
  const sc_time t0 = sc_time_stamp();
  if (e == Engine::Copy) {
    while (copies_free_ == 0)
      wait(freed_);
    --copies_free_;
    *l.copy_wait_ps += ps_since(t0);
  } else if (e == Engine::Kernel) {
    const uint32_t limit = shared ? time_.concurrent_kernels : 1;
    while (kernel_alone_ || kernels_running_ >= limit)
      wait(freed_);
    ++kernels_running_;
    kernel_alone_ = !shared;
    *l.kernel_wait_ps += ps_since(t0);
  }
}

void StreamEngineModule::release(Engine e) {
  if (e == Engine::Copy) ++copies_free_;
  if (e == Engine::Kernel) {
    --kernels_running_;
    kernel_alone_ = false;
  }
  if (e != Engine::None) freed_.notify(SC_ZERO_TIME);
}

void StreamEngineModule::active(Engine e, int delta) {
  const uint64_t dt = ps_since(since_);
  const uint32_t n = copies_active_ + kernels_active_ + others_active_;
  if (n >= 1) *active_ps_ += dt;
  if (n >= 2) *overlap_ps_ += dt;
  if (copies_active_ && kernels_active_) *copy_kernel_ps_ += dt;
  if (kernels_overlap_ps_ && kernels_active_ >= 2) *kernels_overlap_ps_ += dt;
  since_ = sc_time_stamp();
  uint32_t& c = e == Engine::Copy     ? copies_active_
                : e == Engine::Kernel ? kernels_active_
                                      : others_active_;
  c = delta > 0 ? c + 1 : c - 1;
}

// Re-arms every running kernel's end at the current shares (a start or an
// end changed them). std::map order: the same order every run.
void StreamEngineModule::rearm_kernel_ends() {
  const double now = sc_time_stamp().to_seconds();
  sharing_.for_each([&](uint64_t id) {
    sc_event* e = kernel_end_.at(id);
    e->cancel();
    e->notify(sc_time(std::max(0.0, sharing_.finish_s(id) - now), SC_SEC));
  });
}

void StreamEngineModule::shared_work(double work_s, double use) {
  sc_event end;
  const uint64_t id = sharing_.add(sc_time_stamp().to_seconds(), work_s, use);
  kernel_end_[id] = &end;
  rearm_kernel_ends();
  for (;;) {
    wait(end);
    sharing_.advance(sc_time_stamp().to_seconds());
    // sc_time rounds to its resolution: what is left is under a picosecond
    if (sharing_.left_s(id) / sharing_.speed() < 1e-12) break;
    rearm_kernel_ends();
  }
  kernel_end_.erase(id);
  sharing_.remove(sc_time_stamp().to_seconds(), id);
  rearm_kernel_ends();
}

void StreamEngineModule::execute(const rt::StreamOp& op) {
  if (shares(op)) { // beside other kernels: the launch is the GPU's own, the work is shared
    if (op.kind == rt::OpKind::Memset) {
      shared_work(memset_seconds(time_, op.bytes), 1.0);
    } else {
      wait(sc_time(time_.launch_us, SC_US));
      shared_work(work_seconds(time_, op.cost), gpu_share(time_, op.cost));
    }
    return;
  }
  switch (op.kind) {
  case rt::OpKind::H2D:
  case rt::OpKind::D2H:
  case rt::OpKind::P2P:
    copy(op.kind, gpu_, op.peer, op.memory, op.bytes);
    break;
  case rt::OpKind::Memset:
    wait(sc_time(memset_seconds(time_, op.bytes), SC_SEC));
    break;
  case rt::OpKind::Kernel:
    if (device_ && (op.kernel || op.cause == rt::Cause::Task))
      device_kernel(op);
    else if (op.waves)
      managed_kernel(op);
    else
      wait(sc_time(kernel_seconds(time_, op.cost), SC_SEC));
    break;
  case rt::OpKind::Callback:
    wait(sc_time(callback_us_, SC_US));
    break;
  }
}

void StreamEngineModule::run(uint32_t lane) {
  Lane& l = *lanes_[lane];
  for (;;) {
    while (l.ops.empty()) {
      drained_.notify(SC_ZERO_TIME);
      wait(l.added);
    }
    Queued q = std::move(l.ops.front());
    l.ops.pop_front();
    l.busy = true;
    const rt::StreamOp& op = q.op;
    const double now = sc_time_stamp().to_seconds();
    if (op.not_before_s > now) wait(sc_time(op.not_before_s - now, SC_SEC));
    const Engine engine = engine_of(op.kind);
    if (multi_) {
      const sc_time w0 = sc_time_stamp();
      while (!may_start(q))
        wait(ended_);
      *l.dep_wait_ps += ps_since(w0);
      acquire(engine, l, shares(op));
      active(engine, +1);
    }
    const sc_time t0 = sc_time_stamp();
    execute(op);
    const uint64_t spent = ps_since(t0);
    busy_ps_ += spent;
    if (op.kind == rt::OpKind::Kernel || op.kind == rt::OpKind::Memset)
      kernel_ps_ += spent;
    else if (op.kind != rt::OpKind::Callback)
      copy_ps_ += spent;
    ++ops_run_;
    if (multi_) {
      ++*l.ops_run;
      *l.busy_ps += spent;
      active(engine, -1);
      release(engine);
    }
    if (trace_)
      trace_->span(pid_, l.tid, std::string(rt::to_string(op.kind)) + " " + rt::to_string(op.cause),
                   t0, sc_time_stamp(), {{"bytes", op.bytes}, {"peer", op.peer}});
    if (op.effect && !(device_ && op.kernel)) op.effect();
    ++l.done;
    l.busy = false;
    if (multi_) ended_.notify(SC_ZERO_TIME);
    if (progress) progress->notify(SC_ZERO_TIME);
  }
}

} // namespace tlmgpu
