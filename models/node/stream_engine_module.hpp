// One GPU of a node, as the runtime sees it (seed-004 §7.1): its streams
// (runtime.streams, one by default as in the reference), each running its
// operations in order (copies over the fabric, memsets, kernels on the
// kernel-time model, host callbacks, kernels on managed memory wave by wave
// with their fault stalls and page migrations), and running each
// operation's functional effect when it ends. With a full GPU model
// attached (gpu_model.kind = full), a task's kernel runs as a real kernel on
// it instead (node_gpu_module.hpp).
//
// Several streams overlap subject to the GPU's resources: `copy_engines`
// copies at once (which then share the fabric's links), `concurrent_kernels`
// kernel-time kernels and memsets (one by default), sharing the GPU by
// occupancy (kernel_sharing.hpp), and a full-model or managed-memory kernel
// alone (the full model runs one kernel between launch and synchronize),
// callbacks freely. An operation may also wait for
// a fill on another stream (`ready`) or for every stream (`join`).
#pragma once

#include "models/fabric/fabric_module.hpp"
#include "models/node/kernel_sharing.hpp"
#include "models/runtime/runtime_spec.hpp"
#include "models/runtime/task.hpp"
#include "tlmgpu/sim/trace.hpp"
#include "tlmgpu/stats.hpp"

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace tlmgpu {

class NodeGpuModule;

class StreamEngineModule : public sc_core::sc_module {
public:
  StreamEngineModule(sc_core::sc_module_name n, uint32_t gpu, const GpuTimeSpec& time,
                     double callback_us, uint32_t streams, StatGroup& parent);
  tlm_utils::simple_initiator_socket<StreamEngineModule> fabric;

  void push(rt::StreamOp op); // onto stream op.stream
  bool idle() const;          // every stream empty
  const sc_core::sc_event& drained() const { return drained_; }
  // Notified after every operation's effect (the host's workers wait on it).
  sc_core::sc_event* progress = nullptr;
  // A span per operation on its stream's track of the run's trace, if any.
  void attach_trace(TraceWriter& t, uint32_t pid);
  // The full GPU model this GPU's task kernels run on (null: kernel_time).
  void attach_gpu(NodeGpuModule& g) { device_ = &g; }

private:
  struct Queued {
    rt::StreamOp op;
    std::vector<uint64_t> after; // join: each stream's operations that must end first
  };
  struct Lane { // one stream
    std::deque<Queued> ops;
    bool busy = false;
    uint64_t pushed = 0, done = 0;
    sc_core::sc_event added;
    uint32_t tid = 0;
    std::unique_ptr<StatGroup> stats; // several streams only
    Counter *ops_run = nullptr, *busy_ps = nullptr, *dep_wait_ps = nullptr, *copy_wait_ps = nullptr,
            *kernel_wait_ps = nullptr;
  };
  enum class Engine { Copy, Kernel, None };
  static Engine engine_of(rt::OpKind k);
  void run0() { run(0); }
  void run(uint32_t lane);
  bool may_start(const Queued& q) const;
  // Whether `op` may run beside other kernels (a kernel-time kernel or a
  // memset, with gpu_time.concurrent_kernels > 1).
  bool shares(const rt::StreamOp& op) const;
  void acquire(Engine e, Lane& l, bool shared);
  void release(Engine e);
  // `work_s` of a kernel's own time at GPU share `use`, beside the others.
  void shared_work(double work_s, double use);
  void rearm_kernel_ends();
  void active(Engine e, int delta); // overlap accounting
  void execute(const rt::StreamOp& op);
  void copy(rt::OpKind kind, uint32_t end, uint32_t peer, uint32_t memory, uint64_t bytes);
  template <class Ext>
  void transport(Ext& x); // one blocking transport with extension x
  void managed_kernel(const rt::StreamOp& op);
  void remote(const std::vector<rt::Wave::Copy>& copies);
  void device_kernel(const rt::StreamOp& op);
  NodeGpuModule* device_ = nullptr;
  uint32_t gpu_;
  GpuTimeSpec time_;
  double callback_us_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  bool multi_;
  uint32_t copies_free_;
  uint32_t kernels_running_ = 0;
  bool kernel_alone_ = false; // a kernel that shares nothing runs
  KernelSharing sharing_;
  std::map<uint64_t, sc_core::sc_event*> kernel_end_;
  uint32_t copies_active_ = 0, kernels_active_ = 0, others_active_ = 0;
  sc_core::sc_time since_;
  sc_core::sc_event drained_, freed_, ended_; // freed: an engine; ended: any operation
  StatGroup stats_;
  Counter &ops_run_, &busy_ps_, &copy_ps_, &kernel_ps_, &fault_ps_, &migrate_ps_;
  Counter *active_ps_ = nullptr, *overlap_ps_ = nullptr, *copy_kernel_ps_ = nullptr,
          *kernels_overlap_ps_ = nullptr;
  TraceWriter* trace_ = nullptr;
  uint32_t pid_ = 0;
};

} // namespace tlmgpu
