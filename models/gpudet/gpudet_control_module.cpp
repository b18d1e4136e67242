// GPUDet's GPU-wide phases (gpudet_control_module.hpp).
#include "models/gpudet/gpudet_control_module.hpp"

#include "models/gpudet/gpudet_module.hpp"

#include <algorithm>

using namespace sc_core;

namespace tlmgpu {

GpuDetControl::GpuDetControl(SimContext& ctx, const GpuDetSpec& spec, double clock_mhz)
    : ctx_(ctx), spec_(spec), clk_(clock_mhz),
      quanta_(ctx.stats.counter("gpudet_quanta", "quanta",
                                "GPUDet quanta ended (each: commit, serial mode if any warp "
                                "waits at an atomic, then the next quantum opens)")),
      parallel_cycles_(ctx.stats.counter("gpudet_parallel_cycles", "cycles",
                                         "cycles in parallel mode: from a quantum's opening (or "
                                         "the launch) to its last warp ending it")),
      commit_cycles_(ctx.stats.counter("gpudet_commit_cycles", "cycles",
                                       "cycles in commit mode: the quantum barrier "
                                       "(gpudet.barrier_cycles) and the store buffers' writes "
                                       "until the last is answered")),
      serial_cycles_(ctx.stats.counter("gpudet_serial_cycles", "cycles",
                                       "cycles in serial mode (held atomics one warp at a time) "
                                       "and the next quantum's opening (L1 invalidation)")),
      serial_warps_(ctx.stats.counter("gpudet_serial_warps", "warps",
                                      "warps granted an atomic in serial mode (summed over "
                                      "quanta)")),
      commit_lines_(ctx.stats.counter("gpudet_commit_lines", "requests",
                                      "line writes of all commits (after the Z-test)")) {
  sc_spawn([this] { run(); }, "gpudet_control");
  ctx.kernel_end_waits.push_back({[this] { return busy(); }, &changed_});
}

void GpuDetControl::attach(GpuDetModule* s) {
  for (GpuDetModule* o : sms_)
    if (o->sm() == s->sm()) throw ConfigError("sm.stages lists 'gpudet' twice (one per SM)");
  sms_.push_back(s);
}

void GpuDetControl::attach(GpuDetSequencerModule* u, uint32_t slice) {
  if (slice >= sequencers_.size()) sequencers_.resize(slice + 1, nullptr);
  if (sequencers_[slice])
    throw ConfigError("two gpudet_sequencer units claim L2 slice " + std::to_string(slice));
  sequencers_[slice] = u;
}

uint64_t GpuDetControl::next_serial(uint32_t slice) {
  if (slice >= serial_numbers_.size()) serial_numbers_.resize(slice + 1, 0);
  return ++serial_numbers_[slice];
}

// Without a sequencer in front of a slice, overlapped serial requests
// would reach it in whatever order the paths gave them.
void GpuDetControl::check_sequencers() const {
  const uint32_t slices = ctx_.address_map.slices();
  const auto placed =
      std::count_if(sequencers_.begin(), sequencers_.end(), [](auto* u) { return u != nullptr; });
  if (sequencers_.size() != slices || placed != slices)
    throw SimError("gpudet.serial_overlap needs a gpudet_sequencer in front of every L2 slice (" +
                   std::to_string(slices) + "); the topology places " + std::to_string(placed) +
                   " (see examples/dab/tiny-gpudet.json)");
}

bool GpuDetControl::quantum_over() const {
  bool work = false;
  for (const GpuDetModule* s : sms_) {
    if (s->core().running()) return false;
    work = work || !s->core().idle();
  }
  return work; // every warp exited and nothing buffered: no quantum to end
}

bool GpuDetControl::busy() const {
  return !parallel_ || std::any_of(sms_.begin(), sms_.end(), [](const GpuDetModule* s) {
    return !s->core().buffers().empty() || !s->acked();
  });
}

template <class F>
void GpuDetControl::settle(F done, const sc_time& last) {
  if (ctx_.at())
    while (!done())
      wait(poke_);
  else if (last > SC_ZERO_TIME)
    wait(last);
}

void GpuDetControl::run() {
  for (;;) {
    wait(poke_);
    changed_.notify(SC_ZERO_TIME); // the kernel end re-tests busy()
    if (!quantum_over()) continue;
    parallel_cycles_ += now() - std::min(now(), parallel_since_);
    parallel_ = false;
    for (GpuDetModule* s : sms_)
      s->core().set_parallel(false);
    const Cycle t0 = now();
    if (spec_.barrier_cycles && ctx_.timed()) wait(clk_.cycles(spec_.barrier_cycles));
    const bool wrote = commit();
    const Cycle t1 = now();
    commit_cycles_ += t1 - t0;
    const bool atomics = serial();
    // Memory changed (commits, atomics): every L1 drops its copies, so
    // that the next quantum's loads see the commit, whatever they cached.
    open(wrote || atomics);
    serial_cycles_ += now() - t1;
    ++quanta_;
    parallel_since_ = now();
    changed_.notify(SC_ZERO_TIME);
    poke(); // the next quantum may be over at once (every warp exited)
  }
}

bool GpuDetControl::commit() {
  std::vector<const GpuDetCore*> cores;
  for (const GpuDetModule* s : sms_)
    cores.push_back(&s->core());
  const auto writes = commit_writes(cores, ctx_.net.line_bytes);
  for (GpuDetModule* s : sms_)
    s->core().clear_buffers();
  sc_time last = SC_ZERO_TIME;
  size_t lines = 0;
  for (size_t i = 0; i < sms_.size(); ++i) {
    lines += writes[i].size();
    last = std::max(last, sms_[i]->send(writes[i], false, SC_ZERO_TIME));
  }
  settle([&] { return std::all_of(sms_.begin(), sms_.end(), [](auto* s) { return s->acked(); }); },
         last);
  commit_lines_ += lines;
  return lines > 0;
}

bool GpuDetControl::serial() {
  std::vector<std::pair<GpuDetHeld, GpuDetModule*>> held;
  for (GpuDetModule* s : sms_)
    for (const GpuDetHeld& h : s->core().held_atomics())
      held.emplace_back(h, s);
  if (held.empty()) return false;
  const bool arrival = spec_.inject_fault == "serial_arrival";
  std::sort(held.begin(), held.end(), [&](auto& a, auto& b) {
    return arrival ? a.first.arrival < b.first.arrival : a.first.gid < b.first.gid;
  });
  serial_warps_ += held.size();
  const auto until = [&](const sc_time& t) {
    if (!ctx_.at() && t > sc_time_stamp()) wait(t - sc_time_stamp());
  };
  if (!spec_.serial_overlap) {
    for (auto& [h, s] : held) {
      // One at a time: the next warp's atomic goes once this one's answers
      // are back at its SM (the round trip, notes §4).
      s->core().grant(h.slot);
      while (!s->serial_done(h.slot))
        wait(poke_);
      until(s->serial_end());
    }
    return true;
  }
  check_sequencers();
  for (auto& [h, s] : held) {
    // The grant numbers the warp's requests per slice; the sequencers keep
    // each slice in that order whatever overtakes what. at: the next grant
    // once this warp has issued, one per SM cycle at most. lt: one per
    // cycle of the controller's time, not waiting for the issue: an lt SM
    // runs ahead of that time and sees a grant only at its next sync, so
    // waiting would charge that gap to every warp (44 cycles a warp on
    // Titan V float-reduce, against 1.1 in at); its requests still reach
    // each slice in number order (the sequencer holds early callers).
    s->core().grant(h.slot);
    if (ctx_.at())
      while (!s->serial_issued(h.slot))
        wait(poke_);
    if (ctx_.timed()) wait(clk_.cycles(1));
  }
  // The round ends when every granted warp's answers are back.
  sc_time last = SC_ZERO_TIME;
  for (GpuDetModule* s : sms_) {
    while (!s->core().serial_settled())
      wait(poke_);
    last = std::max(last, s->serial_end());
  }
  until(last);
  return true;
}

void GpuDetControl::open(bool invalidate) {
  sc_time last = SC_ZERO_TIME;
  if (invalidate)
    for (GpuDetModule* s : sms_)
      last = std::max(last, s->send({}, true, SC_ZERO_TIME));
  settle([&] { return std::all_of(sms_.begin(), sms_.end(), [](auto* s) { return s->acked(); }); },
         last);
  parallel_ = true;
  for (GpuDetModule* s : sms_)
    s->core().open_quantum();
}

} // namespace tlmgpu
