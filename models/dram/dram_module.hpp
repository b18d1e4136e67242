// One DRAM channel as a SystemC module: a target port per L2 slice of the
// channel, a bounded scheduler queue (FR-FCFS/FCFS from DramChannelCore), and
// real bytes in the shared BackingStore. See models/dram/README.md.
#pragma once

#include "models/dram/dram_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <memory>
#include <vector>

namespace tlmgpu {

class DramModule : public sc_core::sc_module {
public:
  // `ports` target ports (port `in[k]`; the GPU binds one per L2 sub-partition).
  DramModule(sc_core::sc_module_name n, SimContext& ctx, const DramSpec& spec, uint32_t channel,
             StatGroup& parent, uint32_t ports);
  std::vector<std::unique_ptr<TargetPort>> ports;

private:
  struct Queued {
    Payload* t;
    unsigned port;
    Cycle arrival;
  };
  void b_transport(Payload& t, sc_core::sc_time& delay);
  unsigned debug(Payload& t);
  unsigned bursts_of(Payload& t) const;
  void apply_data(Payload& t);
  void record(Payload& t, const DramAccessTiming& tm, Cycle arrival);
  void admit();    // AT: move requests from the ports into the scheduler queue
  void schedule(); // AT: pick one request per DRAM cycle and service it

  SimContext& ctx_;
  uint32_t channel_;
  const DramSpec& spec_;
  Clock clk_;
  DramChannelCore core_;
  std::vector<Queued> queue_;
  std::vector<PendingDram> view_;
  bool scheduled_ = false;
  Cycle next_decision_ = 0;
  unsigned next_port_ = 0;
  TimedQueue timer_{"timer"};
  // Injected non-determinism (jitter.*): extra latency per access, and the
  // scheduler's and the port rotation's tie-breaks. Off: never drawn.
  uint32_t jitter_max_ = 0;
  JitterStream latency_jitter_, ties_;

  StatGroup stats_;
  Counter &reads_, &writes_, &bytes_read_, &bytes_written_, &row_hits_, &row_closed_,
      &row_conflicts_;
  Average &latency_, &queue_wait_;
  Counter& busy_cycles_;
};

} // namespace tlmgpu
