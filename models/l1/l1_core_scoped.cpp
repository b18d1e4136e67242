// The HRF-scoped L1 in the L1 core (l1.atomic_mode = scoped; seed-002 §2.1,
// models/scoped for the kernel-free protocol core with remote operations).
// The sFIFO is the protocol core's SFifo (models/scoped/sync_tables.hpp):
// line addresses in the order they were first dirtied.
//
//   store ─► line not in the sFIFO and the sFIFO full? ─► pop the oldest,
//            its dirty bytes leave (sfifo_overflow) ─► write-combine the bytes
//            (no fetch) ─► line dirty and not in the sFIFO? ─► push
//   device/system release ─► pop every entry, dirty bytes of each line leave
//   device/system acquire ─► clean lines dropped, dirty lines keep only
//                            their dirty bytes
//
// An entry whose line was evicted (written back as a victim) or dropped by
// an atomic stays until it is popped and then finds nothing dirty: cheaper
// than searching the FIFO, and a line dirtied again meanwhile still has an
// entry, so "every dirty line has an entry" holds.
#include "models/l1/l1_core.hpp"

#include <stdexcept>
#include <string>

namespace tlmgpu {

void L1Core::init_scoped(StatGroup& stats) {
  scoped_.emplace(ScopedState{
      scoped::SFifo(spec_.sfifo_entries),
      &stats.counter("sfifo_drains", "events", "device/system releases that drained the sFIFO"),
      &stats.counter("sfifo_lines_flushed", "lines",
                     "dirty lines written back by releases (sFIFO drains)"),
      &stats.counter("sfifo_overflows", "lines",
                     "dirty lines written back because the sFIFO was full"),
      &stats.counter("scoped_acquires", "events",
                     "device/system acquires (flash invalidations of this L1)"),
      &stats.counter("scoped_lines_invalidated", "lines", "clean lines dropped by acquires"),
      &stats.counter("scoped_lines_trimmed", "lines",
                     "dirty lines an acquire kept with only their dirty bytes valid")});
  scoped_->skip_drain = spec_.inject_fault == "skip_release_drain";
  scoped_->skip_invalidate = spec_.inject_fault == "skip_acquire_invalidate";
  if (spec_.selective_rsp()) init_srsp(stats);
}

std::optional<Writeback> L1Core::take_dirty_line(Addr line) {
  std::optional<Writeback> wb;
  CacheLine* l = array_.find(line);
  if (!l || l->dirty_bytes.none()) return wb;
  wb.emplace();
  wb->line = line;
  wb->data = l->data;
  wb->dirty = l->dirty_bytes;
  l->dirty_bytes.clear();
  ++writebacks_;
  return wb;
}

L1Outcome L1Core::store(Addr line, const uint8_t* data, const uint8_t* be, bool replay) {
  if (!scoped_ || !enabled()) return store_plain(line, data, be, replay);
  ScopedState& s = *scoped_;
  std::optional<Writeback> overflow;
  if (!s.fifo.holds(line) && s.fifo.full()) {
    overflow = take_dirty_line(pop_sfifo().line);
    if (overflow) ++*s.overflows;
  }
  L1Outcome out = store_plain(line, data, be, replay);
  const CacheLine* l = array_.find(line);
  if (l && l->dirty_bytes.any() && !s.fifo.holds(line)) s.fifo.push(line);
  out.sfifo_overflow = std::move(overflow);
  return out;
}

std::vector<Writeback> L1Core::scoped_release() {
  ScopedState& s = *scoped_;
  std::vector<Writeback> out;
  ++*s.drains;
  while (!s.fifo.empty())
    if (auto wb = take_dirty_line(pop_sfifo().line)) out.push_back(std::move(*wb));
  *s.lines_flushed += out.size();
  // Every dirty line has an entry; one left dirty now would mean the release
  // let a write stay behind it.
  array_.for_each_valid([](const CacheLine& l) {
    if (l.dirty_bytes.any())
      throw std::logic_error("L1Core::scoped_release: dirty line " + std::to_string(l.line) +
                             " had no sFIFO entry");
  });
  return out;
}

void L1Core::scoped_acquire() {
  ScopedState& s = *scoped_;
  ++*s.acquires;
  ++invalidations_;
  if (srsp_) srsp_->pa.clear(); // the promotions it owed are done
  array_.for_each_valid([&](CacheLine& l) {
    if (l.dirty_bytes.any()) {
      l.valid_bytes = l.dirty_bytes;
      ++*s.lines_trimmed;
    } else {
      array_.invalidate(l);
      ++*s.lines_invalidated;
    }
  });
}

} // namespace tlmgpu
