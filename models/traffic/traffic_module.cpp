#include "models/traffic/traffic_module.hpp"

#include <tlm_utils/tlm_quantumkeeper.h>

using namespace sc_core;

namespace tlmgpu {

TrafficModule::TrafficModule(sc_module_name n, SimContext& ctx, unsigned gen,
                             const TrafficParams& p, Addr region_base, Addr shared_counter,
                             SharedCounterLog& log, StatGroup& parent, double clock_mhz)
    : sc_module(n), port("port", 2 * p.outstanding + 2, [this](Payload& t) { on_response(t); }),
      ctx_(ctx), params_(p), core_(p, gen, region_base, shared_counter, ctx.net.line_bytes,
                                   ctx.net.sector_bytes, ctx.seed),
      log_(log), clk_(clock_mhz), stats_(parent, basename()),
      issued_(stats_.counter("issued", "requests", "requests issued")),
      completed_(stats_.counter("completed", "requests", "responses received (must equal issued)")),
      loads_(stats_.counter("loads", "requests", "loads issued")),
      stores_(stats_.counter("stores", "requests", "stores issued")),
      atomics_(stats_.counter("atomics", "requests", "atomics issued (value-returning)")),
      reds_(stats_.counter("reds", "requests", "reductions issued (no return)")),
      mismatches_(stats_.counter("mismatches", "requests",
                                 "returned values that differ from the reference")),
      unexpected_(stats_.counter("unexpected_responses", "responses",
                                 "responses for no request in flight (duplicates)")),
      latency_(stats_.average("latency", "cycles", "issue to completion, SM cycles")),
      latency_hist_(
          stats_.histogram("latency_hist", "cycles", "issue to completion, SM cycles", 32, 32)) {
  SC_HAS_PROCESS(TrafficModule);
  SC_THREAD(run);
  port.publish(stats_);
}

GpuPayload* TrafficModule::make_payload(const TrafficRequest& r) {
  const unsigned line = ctx_.net.line_bytes;
  GpuPayload* t = ctx_.pool.allocate();
  t->setup(r.access.kind == AccessKind::Store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
           r.line, line, r.access);
  t->access().txn_id = ctx_.pool.next_txn_id();
  std::copy_n(r.data.data(), line, t->data());
  if (r.access.kind == AccessKind::Store) {
    std::copy_n(r.byte_enable.data(), line, t->byte_enable());
    t->enable_bytes(line);
  }
  switch (r.access.kind) {
  case AccessKind::Load:
    ++loads_;
    break;
  case AccessKind::Store:
    ++stores_;
    break;
  case AccessKind::Atomic:
    ++atomics_;
    break;
  default:
    ++reds_;
    break;
  }
  ++issued_;
  return t;
}

void TrafficModule::complete(const TrafficRequest& r, GpuPayload& t, Cycle latency) {
  ++completed_;
  if (t.get_response_status() != tlm::TLM_OK_RESPONSE) {
    ++mismatches_;
    if (first_error_.empty()) first_error_ = "request to 0x" + std::to_string(r.line) + " failed";
  }
  if (r.shared_counter)
    for (unsigned i = 0; i < r.access.lanes.size(); ++i)
      log_.record(t.access().lanes[i].result & 0xffffffffu);
  std::string err = core_.check(r, t.data(), t.access());
  if (!err.empty()) {
    ++mismatches_;
    if (first_error_.empty()) first_error_ = err;
  }
  latency_.sample(double(latency));
  latency_hist_.sample(latency);
}

void TrafficModule::run() {
  if (ctx_.at())
    run_at();
  else
    run_blocking();
  finished_ = true;
  done.notify(SC_ZERO_TIME);
}

void TrafficModule::run_blocking() {
  tlm_utils::tlm_quantumkeeper qk;
  qk.reset();
  auto never_busy = [](Addr) { return false; };
  TrafficRequest r;
  for (uint64_t i = 0; i < params_.requests; ++i) {
    core_.next(r, never_busy);
    GpuPayload* t = make_payload(r);
    sc_time d = qk.get_local_time();
    const sc_time issued = sc_time_stamp() + d;
    port.b_transport(*t, d);
    const Cycle latency = ctx_.timed() ? clk_.at(sc_time_stamp() + d) - clk_.at(issued) : 0;
    complete(r, *t, latency);
    t->release();
    if (ctx_.timed()) {
      // Next issue one cycle later at the earliest (one memory instruction per cycle).
      qk.set(d + clk_.period());
      if (qk.need_sync()) qk.sync();
    }
  }
  if (ctx_.timed()) qk.sync();
}

void TrafficModule::on_response(Payload& p) {
  auto& t = static_cast<GpuPayload&>(p);
  const auto s = t.initiator_state<uint32_t>();
  // A duplicated or stray response: counted, fails the run.
  if (s >= slots_.size() || slots_[s].t != &t) {
    ++unexpected_;
    if (first_error_.empty()) first_error_ = "response for a request not in flight";
    return;
  }
  Slot& slot = slots_[s];
  complete(slot.r, t, clk_.now() - slot.issued);
  slot.t = nullptr;
  --in_flight_;
  t.release();
  progress_.notify(SC_ZERO_TIME);
}

void TrafficModule::run_at() {
  slots_.resize(params_.outstanding);
  auto busy = [this](Addr l) {
    for (const Slot& s : slots_)
      if (s.t && !s.r.shared_counter && s.r.line == l) return true;
    return false;
  };
  uint64_t issued = 0;
  while (issued < params_.requests) {
    // A free slot exists whenever fewer than `outstanding` are out; the
    // request is drawn straight into it (no copy of the 2.5 KB request).
    uint32_t s = 0;
    while (s < slots_.size() && slots_[s].t)
      ++s;
    if (in_flight_ >= params_.outstanding || !port.can_send() || !core_.next(slots_[s].r, busy)) {
      wait(progress_);
      continue;
    }
    Slot& slot = slots_[s];
    GpuPayload* t = make_payload(slot.r);
    t->set_initiator_state(s);
    slot.t = t;
    slot.issued = clk_.now();
    ++in_flight_;
    port.send(*t);
    ++issued;
    wait(clk_.period());
  }
  while (in_flight_ > 0)
    wait(progress_);
}

} // namespace tlmgpu
