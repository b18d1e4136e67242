#include "models/node/stream_engine_module.hpp"
#include "models/node/kernel_time.hpp"
#include "models/node/node_gpu_module.hpp"

using namespace sc_core;

namespace tlmgpu {

StreamEngineModule::StreamEngineModule(sc_module_name n, uint32_t gpu, const GpuTimeSpec& time,
                                       double callback_us, StatGroup& parent)
    : sc_module(n), fabric("fabric"), gpu_(gpu), time_(time), callback_us_(callback_us),
      stats_(parent, "stream_" + std::to_string(gpu)),
      ops_run_(stats_.counter("ops", "ops", "stream operations run")),
      busy_ps_(stats_.counter("busy_ps", "ps", "time the stream was running an operation")),
      copy_ps_(stats_.counter("copy_ps", "ps", "time in copies (H2D, D2H, P2P)")),
      kernel_ps_(stats_.counter("kernel_ps", "ps", "time in kernels and memsets")),
      fault_ps_(stats_.counter("fault_ps", "ps",
                               "managed-memory kernels: time stalled for fault batches")),
      migrate_ps_(stats_.counter("migrate_ps", "ps",
                                 "managed-memory kernels: time migrating pages (in kernel_ps)")) {
  SC_HAS_PROCESS(StreamEngineModule);
  SC_THREAD(run);
}

void StreamEngineModule::attach_trace(TraceWriter& t, uint32_t pid) {
  trace_ = &t;
  pid_ = pid;
  tid_ = t.track(pid, "gpu_" + std::to_string(gpu_) + " stream");
}

void StreamEngineModule::push(rt::StreamOp op) {
  ops_.push_back(std::move(op));
  added_.notify(SC_ZERO_TIME);
}

void StreamEngineModule::copy(rt::OpKind kind, uint32_t peer, uint32_t memory, uint64_t bytes) {
  FabricTransfer x;
  x.bytes = bytes;
  x.memory = memory;
  x.gpu = gpu_;
  x.peer = peer;
  x.route = kind == rt::OpKind::H2D   ? FabricTransfer::Route::HostToGpu
            : kind == rt::OpKind::D2H ? FabricTransfer::Route::GpuToHost
                                      : FabricTransfer::Route::Peer;
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
// page migrations over the fabric and its work; the source decides a wave's
// faults when the wave starts, so the GPUs' waves see each other's
// migrations in time order.
void StreamEngineModule::managed_kernel(const rt::StreamOp& op) {
  wait(sc_time(time_.launch_us, SC_US));
  rt::Wave w;
  while (op.waves(w, sc_time_stamp().to_seconds())) {
    const sc_time t0 = sc_time_stamp();
    if (w.stall_s > 0) wait(sc_time(w.stall_s, SC_SEC));
    const sc_time t1 = sc_time_stamp();
    for (const rt::Wave::Copy& c : w.copies)
      copy(c.kind, c.peer, c.memory, c.bytes);
    fault_ps_ += uint64_t((t1 - t0).to_seconds() * 1e12 + 0.5);
    migrate_ps_ += uint64_t((sc_time_stamp() - t1).to_seconds() * 1e12 + 0.5);
    wait(sc_time(work_seconds(time_, w.work), SC_SEC));
    w = rt::Wave();
  }
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

void StreamEngineModule::run() {
  for (;;) {
    while (ops_.empty()) {
      drained_.notify(SC_ZERO_TIME);
      wait(added_);
    }
    rt::StreamOp op = std::move(ops_.front());
    ops_.pop_front();
    busy_ = true;
    const double now = sc_time_stamp().to_seconds();
    if (op.not_before_s > now) wait(sc_time(op.not_before_s - now, SC_SEC));
    const sc_time t0 = sc_time_stamp();
    switch (op.kind) {
    case rt::OpKind::H2D:
    case rt::OpKind::D2H:
    case rt::OpKind::P2P:
      copy(op.kind, op.peer, op.memory, op.bytes);
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
    const uint64_t spent = uint64_t((sc_time_stamp() - t0).to_seconds() * 1e12 + 0.5);
    busy_ps_ += spent;
    if (op.kind == rt::OpKind::Kernel || op.kind == rt::OpKind::Memset)
      kernel_ps_ += spent;
    else if (op.kind != rt::OpKind::Callback)
      copy_ps_ += spent;
    ++ops_run_;
    if (trace_)
      trace_->span(pid_, tid_, std::string(rt::to_string(op.kind)) + " " + rt::to_string(op.cause),
                   t0, sc_time_stamp(), {{"bytes", op.bytes}, {"peer", op.peer}});
    if (op.effect && !(device_ && op.kernel)) op.effect();
    busy_ = false;
    if (progress) progress->notify(SC_ZERO_TIME);
  }
}

} // namespace tlmgpu
