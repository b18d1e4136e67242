// A GPU of scoped caches, kernel-free: N compute units' L1s, one L2 with its
// per-line remote lock, and the messages between them, on the event loop of
// event_loop.hpp. The protocol variants of scoped_spec.hpp are policies of
// ScopedL1 (scoped_l1*.cpp); README.md has the diagram and the rules P1-P8.
#pragma once

#include "models/scoped/event_loop.hpp"
#include "models/scoped/scoped_spec.hpp"
#include "models/scoped/sync_op.hpp"
#include "models/scoped/sync_tables.hpp"
#include "tlmgpu/jitter.hpp"
#include "tlmgpu/stats.hpp"

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tlmgpu::scoped {

class ScopedSystem;

// Full invalidations by cause (seed-002 §6.4).
enum class InvCause { CmpAcquire, Promoted, RemoteSelf, PaOverflow, Broadcast, Kernel, kCount };

struct ScopedStats {
  explicit ScopedStats(StatGroup& g);
  std::array<Counter*, size_t(Msg::kCount)> msgs{};
  std::array<Counter*, size_t(InvCause::kCount)> full_inv{};
  Counter &full_flushes, &flush_writebacks, &partial_drains, &partial_drain_entries,
      &line_invalidations, &lr_hits, &lr_misses, &lr_overflow_evictions, &pa_inserts, &pa_hits,
      &pa_overflows, &predictor_hits, &predictor_misfires, &same_cu_shortcuts, &wg_ops, &cmp_ops,
      &rem_acq, &rem_rel, &rem_ar, &remote_cycles, &l1s_flushed, &l1s_invalidated,
      &cu_blocked_cycles, &l2_lock_cycles, &l2_parked, &l2_accesses;
};

// One L1 line frame: write-combining, so bytes are valid or dirty
// individually (a store allocates a frame without fetching).
struct LineFrame {
  std::array<uint8_t, 64> data{};
  uint64_t valid = 0, dirty = 0, lru = 0;
};

class ScopedL1 {
public:
  ScopedL1(ScopedSystem& sys, uint32_t id);
  uint32_t id() const { return id_; }

  // CU side: what a warp issues.
  Task<uint32_t> load(Addr a);
  Task<void> store(Addr a, uint32_t v);
  Task<uint32_t> sync(SyncOp op);
  // Kernel end: sys release (everything written back, acked).
  Task<void> kernel_end();

  // Responder side: a selective flush / invalidate arriving from requester.
  Task<bool> on_selflush(Addr line);
  Task<void> on_selinv(Addr line);
  Task<void> on_bcast_flush();
  Task<void> on_bcast_inv(bool unlock);

  const SFifo& sfifo() const { return sfifo_; }
  const LrTable& lr() const { return lr_; }
  const PaTable& pa() const { return pa_; }
  size_t lines() const { return lines_.size(); }
  bool dirty_lines_in_fifo() const; // invariant E: every dirty line has an sFIFO entry

private:
  // ---- scoped_l1.cpp: the cache and the local operations ----
  Addr line_of(Addr a) const;
  Addr key_of(Addr a) const;
  uint64_t word_mask(Addr a) const;
  LineFrame& frame(Addr line); // allocates (evicting LRU, writing back dirty bytes)
  Task<void> admit(Addr line); // waits while the CU is blocked or the line busy
  Task<bool>
  fetch(Addr line); // reads the line from L2; installs (true) unless invalidated meanwhile
  void note_dirty(Addr line); // first dirtying: an sFIFO entry
  uint64_t push_release(Addr line, Addr key);
  void make_room();
  void write_back(Addr line); // sends the dirty bytes, does not wait
  Task<void> wb_quiet();      // waits until every write-back sent is acknowledged
  Task<void> drain_to(uint64_t marker);
  Task<void> flush();
  Task<void> invalidate_all(InvCause why);
  Task<void> invalidate_line(Addr line, bool wait);
  Task<void> writeback_and_drop(Addr line); // P5, before any atomic at L2
  Task<uint32_t> wg_op(SyncOp op);
  Task<uint32_t> cmp_op(SyncOp op);
  Task<uint32_t> promoted_op(SyncOp op);
  uint32_t perform_local(LineFrame& f, const SyncOp& op);
  Task<uint32_t> l2_atomic(SyncOp op, bool lock_after);
  Task<void> l2_lock(Addr line);
  Task<void> l2_unlock(Addr line);

  // ---- scoped_l1_remote.cpp: remote operations (requester side) ----
  Task<uint32_t> remote_op(SyncOp op);
  Task<uint32_t> srsp_acquire(SyncOp op, bool also_release);
  Task<uint32_t> srsp_release(SyncOp op);
  Task<uint32_t> brsp_op(SyncOp op);
  Task<void> selflush_all(Addr line, std::vector<uint32_t> targets, uint32_t& positives,
                          int32_t& positive_from);
  Task<void> selinv_all(Addr line);
  Task<void> selinv_then_unlock(Addr line);
  void block();
  void unblock();

  ScopedSystem& sys_;
  uint32_t id_;
  std::unordered_map<Addr, LineFrame> lines_;
  uint64_t lru_clock_ = 0, epoch_ = 0;
  SFifo sfifo_;
  LrTable lr_;
  PaTable pa_;
  std::unordered_map<Addr, uint32_t> predictor_; // key -> owner L1 (srsp_opt)
  std::vector<Addr> predictor_lru_;
  uint32_t blocked_ = 0, cu_fetches_ = 0, outstanding_wb_ = 0;
  uint64_t blocked_since_ = 0;
  std::unordered_map<Addr, uint32_t> busy_; // lines a responder is working on
  Cond changed_;
};

class ScopedSystem {
public:
  ScopedSystem(const ScopedSpec& spec, const Mutations& mut, uint64_t seed, StatGroup& stats);
  ~ScopedSystem();

  const ScopedSpec& spec() const { return spec_; }
  Protocol protocol() const { return proto_; }
  const Mutations& mut() const { return mut_; }
  EventLoop& loop() { return loop_; }
  Spawner& spawner() { return spawner_; }
  ScopedStats& stats() { return stats_; }
  ScopedL1& l1(uint32_t i) { return *l1s_[i]; }
  uint32_t cus() const { return uint32_t(l1s_.size()); }
  JitterStream& rng() { return rng_; }

  // A message from cache `src` to `dst` (an L1 or l2_node()): counted, delivered
  // after the hop latency plus jitter, in order per (src, dst) pair.
  Task<void> hop(uint32_t src, uint32_t dst, Msg m);
  // The crossbar node of the L2 bank holding `line` (L1 i is node i).
  uint32_t l2_node(Addr line) const {
    return cus() + uint32_t(line / spec_.line_bytes % spec_.l2_banks);
  }

  // ---- L2 (scoped_l2.cpp): the point of coherence, a memory of lines ----
  Task<void> l2_read(uint32_t who, Addr line, LineFrame& out);
  Task<void> l2_write_back(Addr line, const LineFrame& f);
  Task<uint32_t> l2_atomic(uint32_t who, SyncOp op, bool lock_after);
  Task<void> l2_lock(uint32_t who, Addr line);
  void l2_unlock(uint32_t who, Addr line);
  uint32_t peek(Addr a) const; // L2's word, no timing
  void poke(Addr a, uint32_t v);

  // First exception thrown by any task (a broken invariant), or empty.
  const std::string& error() const { return error_; }

private:
  ScopedSpec spec_;
  Protocol proto_;
  Mutations mut_;
  EventLoop loop_;
  std::string error_;
  Spawner spawner_;
  ScopedStats stats_;
  JitterStream rng_;
  std::vector<std::unique_ptr<ScopedL1>> l1s_;
  std::unordered_map<uint64_t, uint64_t> pair_clock_; // (src, dst) -> last delivery
  std::unordered_map<Addr, std::array<uint8_t, 64>> mem_;
  L2LineLock lock_;
  std::unordered_map<Addr, uint64_t> locked_since_;
  Cond lock_changed_;
};

} // namespace tlmgpu::scoped
