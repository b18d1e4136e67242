#include "models/scoped/scoped_system.hpp"

#include <cstring>
#include <exception>
#include <stdexcept>

namespace tlmgpu::scoped {

ScopedStats::ScopedStats(StatGroup& g)
    : full_flushes(
          g.counter("full_flushes", "", "sFIFO drained completely (releases, invalidations)")),
      flush_writebacks(
          g.counter("flush_writebacks", "lines",
                    "dirty lines written back by drains, overflow pops and evictions")),
      partial_drains(g.counter("partial_drains", "",
                               "sFIFO drained to an LR-TBL marker (selective flush hit)")),
      partial_drain_entries(
          g.counter("partial_drain_entries", "entries", "sFIFO entries popped by partial drains")),
      line_invalidations(g.counter("line_invalidations", "",
                                   "single lines invalidated by selective flushes/invalidates")),
      lr_hits(g.counter("lr_hits", "", "selective flushes that hit the LR-TBL")),
      lr_misses(g.counter("lr_misses", "", "selective flushes that missed the LR-TBL")),
      lr_overflow_evictions(g.counter("lr_overflow_evictions", "",
                                      "LR-TBL entries dropped by an sFIFO overflow pop")),
      pa_inserts(g.counter("pa_inserts", "", "PA-TBL insertions by selective invalidates")),
      pa_hits(
          g.counter("pa_hits", "", "wg acquires promoted to cmp scope (PA-TBL hit or overflow)")),
      pa_overflows(
          g.counter("pa_overflows", "", "selective invalidates that found the PA-TBL full")),
      predictor_hits(g.counter("predictor_hits", "",
                               "srsp_opt: unicast selective flushes answered positively")),
      predictor_misfires(
          g.counter("predictor_misfires", "",
                    "srsp_opt: unicast selective flushes that fell back to a broadcast")),
      same_cu_shortcuts(g.counter("same_cu_shortcuts", "",
                                  "srsp_opt: remote ops run as wg ops after an own LR-TBL hit")),
      wg_ops(g.counter("wg_ops", "", "wg-scope synchronizing operations")),
      cmp_ops(g.counter("cmp_ops", "", "cmp-scope synchronizing operations (not remote)")),
      rem_acq(g.counter("rem_acq", "", "remote acquires")),
      rem_rel(g.counter("rem_rel", "", "remote releases")),
      rem_ar(g.counter("rem_ar", "", "remote acquire+releases")),
      remote_cycles(g.counter(
          "remote_cycles", "cycles",
          "issue-to-completion cycles of remote operations (remote sync overhead, Fig. 8)")),
      l1s_flushed(g.counter("l1s_flushed", "",
                            "L1s that drained (fully or to a marker) for a remote operation")),
      l1s_invalidated(
          g.counter("l1s_invalidated", "", "L1s fully invalidated for a remote operation")),
      cu_blocked_cycles(g.counter("cu_blocked_cycles", "cycles",
                                  "cycles L1s refused their CU's requests (summed over L1s)")),
      l2_lock_cycles(g.counter("l2_lock_cycles", "cycles",
                               "cycles L2 lines were locked by remote operations")),
      l2_parked(g.counter("l2_parked", "", "L1 requests parked at a locked L2 line")),
      l2_accesses(
          g.counter("l2_accesses", "", "L2 accesses: reads, write-backs and atomics (Fig. 7)")) {
  for (size_t i = 0; i < msgs.size(); ++i)
    msgs[i] = &g.counter(std::string("msg_") + msg_name(Msg(i)), "messages",
                         "messages of this type on the crossbar");
  static const char* causes[] = {"cmp_acquire", "promoted",  "remote_self",
                                 "pa_overflow", "broadcast", "kernel"};
  for (size_t i = 0; i < full_inv.size(); ++i)
    full_inv[i] =
        &g.counter(std::string("full_inv_") + causes[i], "", "full L1 invalidations by this cause");
}

ScopedSystem::ScopedSystem(const ScopedSpec& spec, const Mutations& mut, uint64_t seed,
                           StatGroup& stats)
    : spec_(spec), proto_(spec.proto()), mut_(mut), spawner_(loop_,
                                                             [this](std::exception_ptr e) {
                                                               if (!error_.empty()) return;
                                                               try {
                                                                 std::rethrow_exception(e);
                                                               } catch (const std::exception& x) {
                                                                 error_ = x.what();
                                                               }
                                                             }),
      stats_(stats), rng_(seed, "scoped"), lock_changed_(loop_) {
  spec_.derive();
  for (uint32_t i = 0; i < spec_.cus; ++i)
    l1s_.push_back(std::make_unique<ScopedL1>(*this, i));
}

ScopedSystem::~ScopedSystem() = default;

Task<void> ScopedSystem::hop(uint32_t src, uint32_t dst, Msg m) {
  stats_.msgs[size_t(m)]->inc();
  uint64_t t = loop_.now() + spec_.hop_cycles + rng_.delay(spec_.jitter_cycles);
  uint64_t& last = pair_clock_[uint64_t(src) << 32 | dst];
  if (t < last) t = last;
  last = t;
  co_await loop_.sleep(t - loop_.now());
}

uint32_t ScopedSystem::peek(Addr a) const {
  Addr line = a & ~Addr(spec_.line_bytes - 1);
  auto it = mem_.find(line);
  uint32_t v = 0;
  if (it != mem_.end()) std::memcpy(&v, it->second.data() + (a - line), 4);
  return v;
}

void ScopedSystem::poke(Addr a, uint32_t v) {
  Addr line = a & ~Addr(spec_.line_bytes - 1);
  std::memcpy(mem_[line].data() + (a - line), &v, 4);
}

Task<void> ScopedSystem::l2_read(uint32_t who, Addr line, LineFrame& out) {
  co_await loop_.sleep(spec_.l2_cycles);
  if (!lock_.admits(line, who)) {
    stats_.l2_parked.inc();
    co_await until(lock_changed_, [&] { return lock_.admits(line, who); });
  }
  stats_.l2_accesses.inc();
  out.data = mem_[line];
  out.valid = spec_.line_bytes == 64 ? ~0ull : (1ull << spec_.line_bytes) - 1;
}

Task<void> ScopedSystem::l2_write_back(Addr line, const LineFrame& f) {
  // Write-backs are never parked (P7): the lock holder may be waiting for them.
  co_await loop_.sleep(spec_.l2_cycles);
  stats_.l2_accesses.inc();
  auto& m = mem_[line];
  for (uint32_t i = 0; i < spec_.line_bytes; ++i)
    if (f.dirty >> i & 1) m[i] = f.data[i];
}

Task<uint32_t> ScopedSystem::l2_atomic(uint32_t who, SyncOp op, bool lock_after) {
  co_await loop_.sleep(spec_.l2_cycles);
  Addr line = op.addr & ~Addr(spec_.line_bytes - 1);
  if (!lock_.admits(line, who)) {
    stats_.l2_parked.inc();
    co_await until(lock_changed_, [&] { return lock_.admits(line, who); });
  }
  stats_.l2_accesses.inc();
  uint32_t w;
  auto& m = mem_[line];
  std::memcpy(&w, m.data() + (op.addr - line), 4);
  uint32_t old = op.apply(w);
  std::memcpy(m.data() + (op.addr - line), &w, 4);
  // A remote release's store and its lock are one step (P3): no L1 may read
  // the new value before every PA-TBL holds the line.
  if (lock_after && !lock_.holds(line, who)) {
    if (!lock_.request(line, who))
      throw std::logic_error("L2 lock after an admitted atomic was not granted");
    locked_since_[line] = loop_.now();
  }
  co_return old;
}

Task<void> ScopedSystem::l2_lock(uint32_t who, Addr line) {
  if (!lock_.request(line, who))
    co_await until(lock_changed_, [&] { return lock_.holds(line, who); });
  locked_since_[line] = loop_.now();
}

void ScopedSystem::l2_unlock(uint32_t who, Addr line) {
  stats_.l2_lock_cycles.inc(loop_.now() - locked_since_[line]);
  lock_.unlock(line, who);
  if (lock_.locked(line)) locked_since_[line] = loop_.now();
  lock_changed_.notify();
}

} // namespace tlmgpu::scoped
