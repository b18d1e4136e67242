// Random-traffic initiator: drives one SM's L1 port with TrafficCore's
// requests in any timing mode and checks every returned value. LT/functional:
// one blocking request at a time under a quantum keeper. AT: up to
// `outstanding` requests in flight, at most one new request per SM cycle.
#pragma once

#include "models/traffic/traffic_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <vector>

namespace tlmgpu {

class TrafficModule : public sc_core::sc_module {
public:
  // Stands in for the warps of an SM whose clock is `clock_mhz`.
  TrafficModule(sc_core::sc_module_name n, SimContext& ctx, unsigned gen, const TrafficParams& p,
                Addr region_base, Addr shared_counter, SharedCounterLog& log, StatGroup& parent,
                double clock_mhz);
  InitiatorPort port;

  bool finished() const { return finished_; }
  sc_core::sc_event done;
  const TrafficCore& core() const { return core_; }
  uint64_t mismatches() const { return mismatches_.value() + unexpected_.value(); }
  uint64_t issued() const { return issued_.value(); }
  uint64_t completed() const { return completed_.value(); }
  const std::string& first_error() const { return first_error_; }

private:
  void run();
  void run_blocking();
  void run_at();
  void complete(const TrafficRequest& r, GpuPayload& t, Cycle latency);
  GpuPayload* make_payload(const TrafficRequest& r);
  void on_response(Payload& t);

  SimContext& ctx_;
  TrafficParams params_;
  TrafficCore core_;
  SharedCounterLog& log_;
  Clock clk_;
  // AT: one slot per request that may be in flight (`outstanding`, a
  // handful); a payload names its slot in its initiator state, so a reply
  // finds its request without a hash lookup, and "is this line busy" is a
  // scan of the few slots rather than a hash set.
  struct Slot {
    const Payload* t = nullptr; // set while the request is out
    TrafficRequest r;
    Cycle issued = 0;
  };
  std::vector<Slot> slots_;
  uint32_t in_flight_ = 0;
  sc_core::sc_event progress_;
  bool finished_ = false;
  std::string first_error_;

  StatGroup stats_;
  Counter &issued_, &completed_, &loads_, &stores_, &atomics_, &reds_, &mismatches_, &unexpected_;
  Average& latency_;
  Histogram& latency_hist_;
};

} // namespace tlmgpu
