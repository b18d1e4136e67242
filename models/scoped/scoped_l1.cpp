// ScopedL1: the cache, its sFIFO and the local and cmp-scope operations
// (seed-002 §1.3, §2.3 a-e). Remote operations: scoped_l1_remote.cpp.
#include "models/scoped/scoped_system.hpp"

#include <cstring>
#include <stdexcept>

namespace tlmgpu::scoped {

ScopedL1::ScopedL1(ScopedSystem& sys, uint32_t id)
    : sys_(sys), id_(id), sfifo_(sys.spec().sfifo_entries), lr_(sys.spec().sfifo_entries),
      pa_(sys.spec().pa_entries), changed_(sys.loop()) {}

Addr ScopedL1::line_of(Addr a) const {
  return a & ~Addr(sys_.spec().line_bytes - 1);
}
Addr ScopedL1::key_of(Addr a) const {
  return sys_.spec().key == "line" ? line_of(a) : a & ~Addr(3);
}
uint64_t ScopedL1::word_mask(Addr a) const {
  return 0xfull << (a - line_of(a));
}

bool ScopedL1::dirty_lines_in_fifo() const {
  for (const auto& [line, f] : lines_)
    if (f.dirty && !sfifo_.holds(line)) return false;
  return true;
}

LineFrame& ScopedL1::frame(Addr line) {
  auto it = lines_.find(line);
  if (it == lines_.end()) {
    if (lines_.size() >= sys_.spec().l1_lines) {
      auto victim = lines_.end();
      for (auto v = lines_.begin(); v != lines_.end(); ++v)
        if (!busy_.count(v->first) &&
            (victim == lines_.end() || v->second.lru < victim->second.lru))
          victim = v;
      if (victim != lines_.end()) {
        write_back(victim->first);
        lines_.erase(victim);
      }
    }
    it = lines_.emplace(line, LineFrame{}).first;
  }
  it->second.lru = ++lru_clock_;
  return it->second;
}

Task<void> ScopedL1::admit(Addr line) {
  co_await sys_.loop().sleep(sys_.spec().l1_cycles +
                             sys_.rng().delay(sys_.spec().jitter_cycles / 4));
  co_await until(changed_, [&] { return blocked_ == 0 && !busy_.count(line); });
}

Task<bool> ScopedL1::fetch(Addr line) {
  uint64_t epoch = epoch_;
  LineFrame got;
  ++cu_fetches_;
  co_await sys_.hop(id_, sys_.l2_node(line), Msg::ReadReq);
  co_await sys_.l2_read(id_, line, got);
  co_await sys_.hop(sys_.l2_node(line), id_, Msg::ReadResp);
  --cu_fetches_;
  // An invalidation while the read was in flight may have ordered it before
  // an acquire: installing it could hand a later load stale data.
  if (epoch_ == epoch) {
    LineFrame& f = frame(line);
    for (uint32_t i = 0; i < sys_.spec().line_bytes; ++i)
      if (!(f.dirty >> i & 1)) f.data[i] = got.data[i];
    f.valid |= got.valid;
    changed_.notify();
    co_return true;
  }
  changed_.notify();
  co_return false;
}

void ScopedL1::make_room() {
  while (sfifo_.full()) {
    auto e = sfifo_.pop();
    size_t before = lr_.size();
    lr_.forget(e.seq);
    if (lr_.size() < before) sys_.stats().lr_overflow_evictions.inc();
    write_back(e.line);
  }
}

void ScopedL1::note_dirty(Addr line) {
  if (sfifo_.holds(line)) return;
  make_room();
  sfifo_.push(line);
}

uint64_t ScopedL1::push_release(Addr line, Addr key) {
  make_room();
  uint64_t seq = sfifo_.push(line);
  lr_.upsert(key, seq);
  return seq;
}

void ScopedL1::write_back(Addr line) {
  auto it = lines_.find(line);
  if (it == lines_.end() || !it->second.dirty) return;
  LineFrame copy = it->second;
  it->second.dirty = 0;
  ++outstanding_wb_;
  sys_.stats().flush_writebacks.inc();
  sys_.spawner().spawn([](ScopedL1* self, Addr line, LineFrame f) -> Task<void> {
    auto& s = self->sys_;
    co_await s.hop(self->id_, s.l2_node(line), Msg::WriteBack);
    co_await s.l2_write_back(line, f);
    co_await s.hop(s.l2_node(line), self->id_, Msg::WbAck);
    --self->outstanding_wb_;
    self->changed_.notify();
  }(this, line, copy));
}

Task<void> ScopedL1::wb_quiet() {
  co_await until(changed_, [&] { return outstanding_wb_ == 0; });
}

Task<void> ScopedL1::drain_to(uint64_t marker) {
  // P6: markers are sequence numbers; the slot-pointer mutation compares
  // ring slots instead, which stops early once the ring has wrapped.
  const bool slots = sys_.mut().slot_pointers;
  uint64_t popped = 0;
  while (!sfifo_.empty() && (slots ? sfifo_.slot(sfifo_.head().seq) <= sfifo_.slot(marker)
                                   : sfifo_.head().seq <= marker)) {
    auto e = sfifo_.pop();
    lr_.forget(e.seq);
    write_back(e.line);
    ++popped;
  }
  sys_.stats().partial_drains.inc();
  sys_.stats().partial_drain_entries.inc(popped);
  co_await wb_quiet();
}

Task<void> ScopedL1::flush() {
  sys_.stats().full_flushes.inc();
  while (!sfifo_.empty()) {
    auto e = sfifo_.pop();
    lr_.forget(e.seq);
    write_back(e.line);
  }
  co_await wb_quiet();
}

Task<void> ScopedL1::invalidate_all(InvCause why) {
  // Dirty bytes first (a flash invalidate must not lose them); stores by
  // other warps during the wait dirty lines again, so repeat until the
  // sFIFO is empty at the instant of the flash.
  do
    co_await flush();
  while (!sfifo_.empty());
  if (!dirty_lines_in_fifo())
    throw std::logic_error("L1 " + std::to_string(id_) + ": a dirty line without an sFIFO entry");
  lines_.clear();
  lr_.clear();
  pa_.clear();
  ++epoch_;
  sys_.stats().full_inv[size_t(why)]->inc();
  changed_.notify();
}

Task<void> ScopedL1::invalidate_line(Addr line, bool wait) {
  auto it = lines_.find(line);
  if (it != lines_.end()) {
    if (sys_.mut().drop_dirty) it->second.dirty = 0; // mutation: P1 broken
    write_back(line);
    lines_.erase(line);
  }
  ++epoch_;
  sys_.stats().line_invalidations.inc();
  if (wait) co_await wb_quiet();
}

Task<void> ScopedL1::writeback_and_drop(Addr line) {
  write_back(line);
  lines_.erase(line);
  ++epoch_;
  co_await wb_quiet();
}

uint32_t ScopedL1::perform_local(LineFrame& f, const SyncOp& op) {
  Addr line = line_of(op.addr);
  uint32_t off = uint32_t(op.addr - line), w;
  std::memcpy(&w, f.data.data() + off, 4);
  uint32_t before = w, old = op.apply(w);
  if (w != before || op.writes_always()) {
    std::memcpy(f.data.data() + off, &w, 4);
    f.dirty |= word_mask(op.addr);
    f.valid |= word_mask(op.addr);
    note_dirty(line);
  }
  // Every wg operation with release semantics leaves a marker (P8), written
  // or not, so a remote acquire drains everything before it.
  if (op.releases()) push_release(line, key_of(op.addr));
  return op.kind == Kind::St ? 0 : old;
}

Task<uint32_t> ScopedL1::load(Addr a) {
  Addr line = line_of(a);
  for (int tries = 0;; ++tries) {
    co_await admit(line);
    auto it = lines_.find(line);
    if (it != lines_.end() && (it->second.valid & word_mask(a)) == word_mask(a)) {
      it->second.lru = ++lru_clock_;
      uint32_t v;
      std::memcpy(&v, it->second.data.data() + (a - line), 4);
      co_return v;
    }
    // The request was admitted before it went out: its fill answers it even
    // if the CU has been blocked since (in-flight requests complete).
    if (co_await fetch(line)) {
      uint32_t v;
      std::memcpy(&v, lines_.at(line).data.data() + (a - line), 4);
      co_return v;
    }
    if (tries > 1000)
      throw std::runtime_error("L1 load never completes: the line is invalidated on every fill");
  }
}

Task<void> ScopedL1::store(Addr a, uint32_t v) {
  Addr line = line_of(a);
  co_await admit(line);
  LineFrame& f = frame(line);
  std::memcpy(f.data.data() + (a - line), &v, 4);
  f.dirty |= word_mask(a);
  f.valid |= word_mask(a);
  note_dirty(line);
}

Task<uint32_t> ScopedL1::sync(SyncOp op) {
  if (op.addr % 4) throw std::invalid_argument("unaligned synchronizing operation");
  Protocol p = sys_.protocol();
  if (p == Protocol::Cmp || (p == Protocol::NoRsp && op.remote)) {
    op.scope = Scope::Cmp;
    op.remote = false;
  }
  if (op.remote) co_return co_await remote_op(op);
  if (op.scope == Scope::Wg) co_return co_await wg_op(op);
  co_return co_await cmp_op(op);
}

Task<uint32_t> ScopedL1::wg_op(SyncOp op) {
  sys_.stats().wg_ops.inc();
  Addr line = line_of(op.addr);
  const bool tables = sys_.protocol() == Protocol::Srsp || sys_.protocol() == Protocol::SrspOpt;
  for (int tries = 0;; ++tries) {
    co_await admit(line);
    // Checked after every wait: a selective invalidate may have armed the
    // PA-TBL while this operation was fetching (P3).
    if (tables && op.acquires() && pa_.hit(key_of(op.addr))) co_return co_await promoted_op(op);
    auto it = lines_.find(line);
    if (it != lines_.end() && (it->second.valid & word_mask(op.addr)) == word_mask(op.addr)) {
      it->second.lru = ++lru_clock_;
      co_return perform_local(it->second, op);
    }
    // A store needs no old value: write-combined into a frame, no fetch
    // (write-no-allocate, §2.3 a). It returns 0.
    if (op.kind == Kind::St) co_return perform_local(frame(line), op);
    // Installed means no invalidation (and so no selective invalidate that
    // could have armed the PA-TBL) happened meanwhile: perform it now.
    if (co_await fetch(line)) co_return perform_local(lines_.at(line), op);
    if (tries > 1000)
      throw std::runtime_error(
          "wg operation never completes: its line is invalidated on every fill");
  }
}

Task<uint32_t> ScopedL1::promoted_op(SyncOp op) {
  sys_.stats().pa_hits.inc();
  if (op.releases()) co_await flush();
  co_await writeback_and_drop(line_of(op.addr));
  uint32_t old = co_await l2_atomic(op, false);
  co_await invalidate_all(InvCause::Promoted);
  co_return old;
}

Task<uint32_t> ScopedL1::cmp_op(SyncOp op) {
  sys_.stats().cmp_ops.inc();
  co_await admit(line_of(op.addr));
  if (op.releases()) co_await flush();
  co_await writeback_and_drop(line_of(op.addr));
  uint32_t old = co_await l2_atomic(op, false);
  if (op.acquires()) co_await invalidate_all(InvCause::CmpAcquire);
  co_return old;
}

Task<uint32_t> ScopedL1::l2_atomic(SyncOp op, bool lock_after) {
  Addr line = line_of(op.addr);
  co_await sys_.hop(id_, sys_.l2_node(line), Msg::AtomicReq);
  uint32_t old = co_await sys_.l2_atomic(id_, op, lock_after);
  co_await sys_.hop(sys_.l2_node(line), id_, Msg::AtomicResp);
  co_return old;
}

Task<void> ScopedL1::l2_lock(Addr line) {
  co_await sys_.hop(id_, sys_.l2_node(line), Msg::RemLockReq);
  co_await sys_.l2_lock(id_, line);
  co_await sys_.hop(sys_.l2_node(line), id_, Msg::RemLockAck);
}

Task<void> ScopedL1::l2_unlock(Addr line) {
  co_await sys_.hop(id_, sys_.l2_node(line), Msg::RemUnlock);
  sys_.l2_unlock(id_, line);
}

Task<void> ScopedL1::kernel_end() {
  co_await invalidate_all(InvCause::Kernel);
  predictor_.clear();
  predictor_lru_.clear();
}

} // namespace tlmgpu::scoped
