// sRSP's tables in the scoped L1 (l1.rsp = srsp; seed-002 §2.1-§2.4;
// models/l1/README.md "Remote scope promotion"). The LR-TBL and PA-TBL are
// the protocol core's (models/scoped/sync_tables.hpp), keyed by line:
//
//   cta-scope release of L ─► sFIFO full? pop the oldest (its dirty bytes
//                             leave, its marker with it) ─► push L ─► LR[L] = seq
//   SelFlush(L)            ─► pop while head.seq <= LR[L]: dirty bytes leave
//   SelInv(L)              ─► PA += L (full: eager flash invalidation first,
//                             or lazy: every acquire promoted until then)
//   cta-scope acquire of L ─► PA hit? promoted (the module performs it at L2
//                             and flash-invalidates, which empties the PA-TBL)
//
// Unlike the paper's, this L1's flash invalidation keeps dirty bytes (its
// own writes) and does not drain the sFIFO, so it leaves the LR-TBL alone:
// its markers still point at live sFIFO entries.
#include "models/l1/l1_core.hpp"

namespace tlmgpu {

void L1Core::init_srsp(StatGroup& stats) {
  srsp_.emplace(SrspState{
      scoped::LrTable(spec_.sfifo_entries), scoped::PaTable(spec_.pa_entries),
      spec_.pa_full == "lazy", spec_.inject_fault == "skip_lr_marker",
      spec_.inject_fault == "skip_pa_insert",
      &stats.counter("srsp_markers", "events",
                     "cta-scope releases that pushed an LR-TBL marker into the sFIFO"),
      &stats.counter("srsp_lr_evictions", "entries",
                     "LR-TBL markers that left because the sFIFO overflowed (their lines were "
                     "written back)"),
      &stats.counter("srsp_marker_drain_lines", "lines",
                     "dirty lines written back by SelFlush drains up to a marker"),
      &stats.counter("srsp_pa_inserts", "entries", "lines SelInv put into the PA-TBL"),
      &stats.counter("srsp_pa_overflows", "events",
                     "SelInv that found the PA-TBL full (fallback: l1.pa_full)"),
      &stats.average("srsp_lr_occupancy", "entries", "LR-TBL entries, sampled at each marker"),
      &stats.average("srsp_pa_occupancy", "entries",
                     "PA-TBL entries, sampled at each SelInv (after it)")});
}

scoped::SFifo::Entry L1Core::pop_sfifo() {
  const scoped::SFifo::Entry e = scoped_->fifo.pop();
  if (srsp_) srsp_->lr.forget(e.seq);
  return e;
}

std::optional<Writeback> L1Core::srsp_mark(Addr line) {
  SrspState& r = *srsp_;
  std::optional<Writeback> overflow;
  if (r.skip_marker) return overflow;
  ScopedState& s = *scoped_;
  if (s.fifo.full()) {
    const scoped::SFifo::Entry head = s.fifo.head();
    if (r.lr.lookup(head.line) == head.seq) ++*r.lr_evictions;
    overflow = take_dirty_line(pop_sfifo().line);
    if (overflow) ++*s.overflows;
  }
  r.lr.upsert(line, s.fifo.push(line));
  ++*r.markers;
  r.lr_occupancy->sample(double(r.lr.size()));
  return overflow;
}

bool L1Core::srsp_marks(Addr line) const {
  return srsp_ && srsp_->lr.lookup(line).has_value();
}

std::vector<Writeback> L1Core::srsp_drain_to_marker(Addr line) {
  std::vector<Writeback> out;
  const std::optional<uint64_t> marker = srsp_->lr.lookup(line);
  if (!marker) return out;
  ScopedState& s = *scoped_;
  while (!s.fifo.empty() && s.fifo.head().seq <= *marker)
    if (auto wb = take_dirty_line(pop_sfifo().line)) out.push_back(std::move(*wb));
  *srsp_->drained += out.size();
  return out;
}

bool L1Core::srsp_pa_insert(Addr line) {
  SrspState& r = *srsp_;
  if (r.skip_pa_insert) return false;
  bool overflow = false;
  if (!r.pa.insert(line)) {
    overflow = true;
    ++*r.pa_overflows;
    if (r.lazy) {
      r.pa.set_overflowed();
    } else {
      scoped_acquire(); // bRSP's action on this L1; empties the PA-TBL
      r.pa.insert(line);
    }
  }
  ++*r.pa_inserts;
  r.pa_occupancy->sample(double(r.pa.size()));
  return overflow;
}

bool L1Core::srsp_promotes(Addr line) const {
  return srsp_ && srsp_->pa.hit(line);
}

} // namespace tlmgpu
