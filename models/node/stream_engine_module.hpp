// One GPU of a node, as the runtime sees it (seed-004 §7.1): an in-order
// stream engine that runs the runtime's operations one after another
// (copies over the fabric, memsets, kernels on the kernel-time model, host
// callbacks, kernels on managed memory wave by wave with their fault
// stalls and page migrations), and runs each operation's functional effect
// when it ends. With a full GPU model attached (gpu_model.kind = full),
// a task's kernel runs as a real kernel on it instead (node_gpu_module.hpp).
#pragma once

#include "models/fabric/fabric_module.hpp"
#include "models/runtime/runtime_spec.hpp"
#include "models/runtime/task.hpp"
#include "tlmgpu/sim/trace.hpp"
#include "tlmgpu/stats.hpp"

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <deque>

namespace tlmgpu {

class NodeGpuModule;

class StreamEngineModule : public sc_core::sc_module {
public:
  StreamEngineModule(sc_core::sc_module_name n, uint32_t gpu, const GpuTimeSpec& time,
                     double callback_us, StatGroup& parent);
  tlm_utils::simple_initiator_socket<StreamEngineModule> fabric;

  void push(rt::StreamOp op);
  bool idle() const { return ops_.empty() && !busy_; }
  const sc_core::sc_event& drained() const { return drained_; }
  // Notified after every operation's effect (the host's workers wait on it).
  sc_core::sc_event* progress = nullptr;
  // A span per operation on this stream's track of the run's trace, if any.
  void attach_trace(TraceWriter& t, uint32_t pid);
  // The full GPU model this stream's task kernels run on (null: kernel_time).
  void attach_gpu(NodeGpuModule& g) { device_ = &g; }

private:
  void run();
  void copy(rt::OpKind kind, uint32_t peer, uint32_t memory, uint64_t bytes);
  void managed_kernel(const rt::StreamOp& op);
  void device_kernel(const rt::StreamOp& op);
  NodeGpuModule* device_ = nullptr;
  uint32_t gpu_;
  GpuTimeSpec time_;
  double callback_us_;
  std::deque<rt::StreamOp> ops_;
  bool busy_ = false;
  sc_core::sc_event added_, drained_;
  StatGroup stats_;
  Counter &ops_run_, &busy_ps_, &copy_ps_, &kernel_ps_, &fault_ps_, &migrate_ps_;
  TraceWriter* trace_ = nullptr;
  uint32_t pid_ = 0, tid_ = 0;
};

} // namespace tlmgpu
