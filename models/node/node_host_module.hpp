// The host of a multi-GPU node running the task runtime (seed-004 §3.2,
// §4.2, §7.1): `workers` threads, each looping over its deques (GPU task ->
// choose a GPU, reserve, hand the stream its operations; CPU task -> LC
// syncs first, then run; idle -> garbage collection or sleep), and the
// program's driver thread, which creates tasks and waits for them (the
// reference runs the driver as a task that blocks in artsBlockForBuffer; a
// thread of its own keeps the 16 workers free, as the waiting worker there
// keeps running other tasks).
#pragma once

#include "models/node/stream_engine_module.hpp"
#include "models/runtime/runtime.hpp"
#include "models/runtime/stream_buffer.hpp"
#include "models/uvm/managed_memory.hpp"
#include "tlmgpu/sim/trace.hpp"

#include <systemc>

#include <functional>
#include <memory>
#include <vector>

namespace tlmgpu {

class NodeHostModule;

// What a program's driver sees: the runtime, and waiting for tasks.
class NodeDriver {
public:
  NodeDriver(NodeHostModule& host, rt::Runtime& rt) : rt(rt), host_(host) {}
  rt::Runtime& rt;
  rt::TaskId add(rt::TaskSpec t);
  void wait(rt::TaskId id);
  void wait_all(const std::vector<rt::TaskId>& ids);
  // Waits until `done()` holds; it is tested whenever the runtime progresses.
  void wait_until(const std::function<bool()>& done);
  // Wakes the workers (after adding tasks through `rt` directly).
  void notify();
  double now_seconds() const;

  // ---- programs on managed memory (models/uvm), without the task runtime
  uvm::ManagedMemory& uvm();
  // One CUDA call from this (the only) host thread: `op` goes onto GPU
  // `gpu`'s stream, not before the call's host time has passed.
  void issue(uint32_t gpu, rt::StreamOp op);
  // cudaDeviceSynchronize: waits for GPU `gpu`'s stream to drain.
  void synchronize(uint32_t gpu);

private:
  NodeHostModule& host_;
};

class NodeHostModule : public sc_core::sc_module {
public:
  NodeHostModule(sc_core::sc_module_name n, rt::Runtime& rt, uvm::ManagedMemory& uvm,
                 const NodeHostSpec& spec, std::vector<StreamEngineModule*> streams,
                 StatGroup& parent);
  std::function<void(NodeDriver&)> program; // set before the simulation starts
  bool finished() const { return finished_; }
  sc_core::sc_event& progress() { return progress_; }
  uvm::ManagedMemory& uvm() { return uvm_; }
  void issue(uint32_t gpu, rt::StreamOp op); // NodeDriver::issue, on the driver's thread
  void wait_stream(uint32_t gpu);
  // What each worker does, as spans on a track per worker (tlmgpu run
  // --trace): GPU task launches, CPU tasks, LC syncs, sweeps, eviction
  // write-backs. Beside the streams' tracks it shows where host time goes.
  void attach_trace(TraceWriter& t, uint32_t pid);

private:
  void driver();
  void worker(uint32_t w);
  bool launch_gpu_task(uint32_t w);
  bool run_cpu_task(uint32_t w);
  void lc_sync(uint32_t w, rt::Guid db);
  // Sweeps `gpu` and waits for the eviction merges it caused; true if
  // anything was freed. `w`: the worker doing it (for the trace).
  bool collect(uint32_t w, uint32_t gpu);
  bool write_back_evictions(uint32_t w); // true if there were any
  // Onto GPU `gpu`'s streams at once, in order, each not before the
  // worker's `issue_us` of host time (which it then spends).
  void issue_all(uint32_t gpu, std::vector<rt::StreamOp> ops, double issue_us);
  // Stream buffering (runtime.stream_buffering): the GPU's buffered
  // operations onto its streams, one API call each; checkStreams.
  void flush(uint32_t gpu, rt::StreamBuffer::Flush why);
  void check_streams();

  void hold(double us) { wait(sc_core::sc_time(us, sc_core::SC_US)); }
  // A span from `t0` to now on worker `w`'s track, if tracing.
  void span(uint32_t w, const std::string& what, const sc_core::sc_time& t0,
            const nlohmann::json& args = nlohmann::json::object());

  rt::Runtime& rt_;
  uvm::ManagedMemory& uvm_;
  NodeHostSpec spec_;
  std::vector<StreamEngineModule*> streams_;
  sc_core::sc_event progress_;
  bool finished_ = false;
  uint64_t idle_sweep_ = 0;
  std::unique_ptr<rt::StreamBuffer> buffer_; // null: buffering off
  StatGroup stats_;
  Counter &busy_ps_, &sync_ps_, &gc_ps_;
  TraceWriter* trace_ = nullptr;
  uint32_t pid_ = 0;
  std::vector<uint32_t> worker_tid_;
};

} // namespace tlmgpu
