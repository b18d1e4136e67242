#include "models/traffic/latency_probe_module.hpp"

#include <tlm_utils/tlm_quantumkeeper.h>

using namespace sc_core;

namespace tlmgpu {

LatencyProbe::LatencyProbe(sc_module_name n, SimContext& ctx, L1Module& l1, Addr address,
                           StatGroup& parent, double clock_mhz)
    : sc_module(n), port("port", 2, [this](Payload&) { response_.notify(SC_ZERO_TIME); }),
      ctx_(ctx), l1_(l1), addr_(address), clk_(clock_mhz), stats_(parent, basename()) {
  SC_HAS_PROCESS(LatencyProbe);
  SC_THREAD(run);
  stats_.formula("l1_hit", "cycles", "unloaded L1 hit latency",
                 [this](StatView) { return double(l1_hit); });
  stats_.formula("l2_hit", "cycles", "unloaded L2 hit latency",
                 [this](StatView) { return double(l2_hit); });
  stats_.formula("dram", "cycles", "unloaded DRAM latency, bank precharged",
                 [this](StatView) { return double(dram); });
  stats_.formula("dram_row_hit", "cycles", "unloaded DRAM latency, open row",
                 [this](StatView) { return double(dram_row_hit); });
}

// One load of one sector, nothing else in flight; the result is the number
// of SM cycles from issue to data.
Cycle LatencyProbe::measure(Addr a) {
  const unsigned line = ctx_.net.line_bytes;
  GpuPayload* t = ctx_.pool.allocate();
  GpuAccess acc;
  acc.kind = AccessKind::Load;
  acc.sector_mask = 1u << ((a % line) / ctx_.net.sector_bytes);
  acc.src_sm = 0;
  t->setup(tlm::TLM_READ_COMMAND, a - a % line, line, acc);
  wait(clk_.until(clk_.at_or_after(sc_time_stamp()))); // start on a cycle edge
  const sc_time start = sc_time_stamp();
  if (ctx_.at()) {
    port.send(*t);
    wait(response_);
  } else {
    sc_time d = SC_ZERO_TIME;
    port.b_transport(*t, d);
    wait(d);
  }
  t->release();
  wait(clk_.cycles(1000)); // let every block drain before the next probe
  return clk_.at(sc_time_stamp() - clk_.cycles(1000)) - clk_.at(start);
}

void LatencyProbe::run() {
  const unsigned line = ctx_.net.line_bytes;
  dram = measure(addr_);
  l1_hit = measure(addr_);
  l1_.flush_and_invalidate();
  l2_hit = measure(addr_);
  // Same channel, bank and row, next line in the row: a row-buffer hit in
  // DRAM (the row stays open under the open-page policy).
  Addr next = addr_ + line;
  MemLocation a = ctx_.address_map.locate(addr_), b = ctx_.address_map.locate(next);
  if (a.channel == b.channel && a.bank == b.bank && a.row == b.row) dram_row_hit = measure(next);
  finished_ = true;
}

} // namespace tlmgpu
