// Load-latency microbenchmark initiator: on an idle GPU, one dependent load at
// a time from SM 0 to one address: cold (DRAM, bank precharged), again (L1
// hit), after invalidating the L1 (L2 hit), and a second line in the same
// DRAM row after invalidating both (DRAM row-buffer hit). Reports SM cycles.
#pragma once

#include "models/l1/l1_module.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"

namespace tlmgpu {

class LatencyProbe : public sc_core::sc_module {
public:
  // Measures in the cycles of `clock_mhz` (the SM whose L1 it drives).
  LatencyProbe(sc_core::sc_module_name n, SimContext& ctx, L1Module& l1, Addr address,
               StatGroup& parent, double clock_mhz);
  InitiatorPort port;
  bool finished() const { return finished_; }
  Cycle dram = 0, l1_hit = 0, l2_hit = 0, dram_row_hit = 0;
  std::string error;

private:
  void run();
  Cycle measure(Addr a);

  SimContext& ctx_;
  L1Module& l1_;
  Addr addr_;
  Clock clk_;
  sc_core::sc_event response_;
  bool finished_ = false;
  StatGroup stats_;
};

} // namespace tlmgpu
