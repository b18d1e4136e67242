#include "models/dram/dram_module.hpp"

#include <algorithm>
#include <bit>

using namespace sc_core;

namespace tlmgpu {

DramModule::DramModule(sc_module_name n, SimContext& ctx, const DramSpec& spec, uint32_t channel,
                       StatGroup& parent, uint32_t port_count)
    : sc_module(n), ctx_(ctx), channel_(channel), spec_(spec), clk_(spec.clock_mhz), core_(spec),
      stats_(parent, basename()),
      reads_(stats_.counter("reads", "accesses", "read accesses (line fills)")),
      writes_(stats_.counter("writes", "accesses", "write accesses (write-backs)")),
      bytes_read_(stats_.counter("bytes_read", "bytes", "bytes transferred by reads")),
      bytes_written_(stats_.counter("bytes_written", "bytes", "bytes transferred by writes")),
      row_hits_(stats_.counter("row_hits", "accesses", "accesses to the open row")),
      row_closed_(stats_.counter("row_misses", "accesses", "accesses to a precharged bank")),
      row_conflicts_(
          stats_.counter("row_conflicts", "accesses", "accesses that closed another row")),
      latency_(
          stats_.average("latency", "dram cycles", "arrival to last data beat + fixed latency")),
      queue_wait_(stats_.average("queue_wait", "dram cycles", "arrival to first command")),
      busy_cycles_(
          stats_.counter("data_bus_busy", "dram cycles", "cycles the data bus carried data")) {
  // LT: the L2 slices call in an order unrelated to time (temporal
  // decoupling). AT's scheduler calls at the current cycle, in time order.
  core_.set_decoupled(ctx.mode == TimingMode::LT);
  jitter_max_ = ctx.jitter.dram();
  if (jitter_max_) latency_jitter_ = ctx.jitter_stream(name(), "latency");
  if (ctx.jitter.tie_breaks()) ties_ = ctx.jitter_stream(name(), "ties");
  stats_.formula("row_hit_rate", "ratio", "row_hits / accesses", [this](StatView v) {
    return ratio(row_hits_.value(v), reads_.value(v) + writes_.value(v));
  });
  for (uint32_t i = 0; i < port_count; ++i) {
    TargetPort::Hooks h;
    h.b_transport = [this](Payload& t, sc_time& d) { b_transport(t, d); };
    h.debug = [this](Payload& t) { return debug(t); };
    h.on_request = [this] { admit(); };
    ports.push_back(std::make_unique<TargetPort>(("port_" + std::to_string(i)).c_str(),
                                                 spec_.queue_size, std::move(h)));
    ports.back()->publish(stats_);
  }
}

unsigned DramModule::bursts_of(Payload& t) const {
  const GpuAccess& a = access_of(t);
  unsigned sector = ctx_.net.sector_bytes;
  unsigned bytes = std::popcount(a.sector_mask) * sector;
  return std::max(1u, (bytes + spec_.burst_bytes - 1) / spec_.burst_bytes);
}

// Data moves when the request reaches the channel: requests from one slice
// arrive in order, so a write-back followed by a re-fetch of the same line
// reads what was written even if the scheduler reorders their timing.
void DramModule::apply_data(Payload& t) {
  if (t.is_write()) {
    if (t.get_byte_enable_ptr())
      ctx_.memory.write_masked(t.get_address(), t.get_data_ptr(), t.get_byte_enable_ptr(),
                               t.get_data_length());
    else
      ctx_.memory.write(t.get_address(), t.get_data_ptr(), t.get_data_length());
  } else {
    ctx_.memory.read(t.get_address(), t.get_data_ptr(), t.get_data_length());
  }
  access_of(t).serviced_by = GpuAccess::Level::Dram;
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

void DramModule::record(Payload& t, const DramAccessTiming& tm, Cycle arrival) {
  unsigned bytes = bursts_of(t) * spec_.burst_bytes;
  if (t.is_write())
    ++writes_, bytes_written_ += bytes;
  else
    ++reads_, bytes_read_ += bytes;
  if (tm.row == RowOutcome::Hit)
    ++row_hits_;
  else if (tm.row == RowOutcome::Closed)
    ++row_closed_;
  else
    ++row_conflicts_;
  busy_cycles_ += bursts_of(t) * spec_.burst_cycles;
  latency_.sample(double(tm.done - arrival));
  queue_wait_.sample(double(tm.start - arrival));
}

void DramModule::b_transport(Payload& t, sc_time& delay) {
  apply_data(t);
  if (!ctx_.timed()) { // no time, no row-buffer state: count the access only
    if (t.is_write())
      ++writes_, bytes_written_ += bursts_of(t) * spec_.burst_bytes;
    else
      ++reads_, bytes_read_ += bursts_of(t) * spec_.burst_bytes;
    return;
  }
  const sc_time arrival_time = sc_time_stamp() + delay;
  const Cycle arrival = clk_.at_or_after(arrival_time);
  core_.retire(clk_.now()); // nothing arrives before the kernel's time any more
  MemLocation loc = ctx_.address_map.locate(t.get_address());
  DramAccessTiming tm = core_.service(loc.bank, loc.row, t.is_write(), bursts_of(t), arrival);
  tm.done += latency_jitter_.delay(jitter_max_); // the data path's, not the banks' time
  record(t, tm, arrival);
  delay = clk_.cycles(tm.done) - sc_time_stamp();
}

unsigned DramModule::debug(Payload& t) {
  if (t.is_write())
    ctx_.memory.write(t.get_address(), t.get_data_ptr(), t.get_data_length());
  else
    ctx_.memory.read(t.get_address(), t.get_data_ptr(), t.get_data_length());
  return t.get_data_length();
}

void DramModule::admit() {
  // Round-robin over the ports so one slice cannot starve the other; with
  // jitter.ties the first port of each admission is a pick instead.
  if (ties_.on() && ports.size() > 1) next_port_ = unsigned(ties_.below(ports.size()));
  bool progress = true;
  while (progress && queue_.size() < spec_.queue_size) {
    progress = false;
    for (size_t k = 0; k < ports.size() && queue_.size() < spec_.queue_size; ++k) {
      TargetPort& p = *ports[(next_port_ + k) % ports.size()];
      if (!p.has_request()) continue;
      Payload& t = p.front();
      apply_data(t);
      queue_.push_back({&t, unsigned((next_port_ + k) % ports.size()), clk_.now()});
      p.pop();
      progress = true;
    }
    next_port_ = (next_port_ + 1) % ports.size();
  }
  if (!scheduled_ && !queue_.empty()) {
    scheduled_ = true;
    timer_.schedule(clk_.until(std::max(clk_.now(), next_decision_)), [this] { schedule(); });
  }
}

void DramModule::schedule() {
  scheduled_ = false;
  if (queue_.empty()) return;
  const Cycle now = clk_.now();
  view_.clear();
  for (const Queued& q : queue_) {
    MemLocation loc = ctx_.address_map.locate(q.t->get_address());
    view_.push_back({loc.bank, loc.row, q.t->is_write(), q.arrival, 0});
  }
  next_decision_ = now + 1; // one scheduling decision per DRAM command cycle
  core_.retire(now);        // decisions come in time order: nothing arrives before now
  size_t i = core_.pick(view_, now, ties_.on() ? &ties_ : nullptr);
  Queued q = queue_[i];
  queue_.erase(queue_.begin() + long(i));
  DramAccessTiming tm =
      core_.service(view_[i].bank, view_[i].row, q.t->is_write(), bursts_of(*q.t), now);
  tm.done += latency_jitter_.delay(jitter_max_);
  record(*q.t, tm, q.arrival);
  ports[q.port]->respond(*q.t, clk_.until(tm.done));
  admit(); // a slot freed: back-pressured ports move in; re-arms the decision
}

} // namespace tlmgpu
