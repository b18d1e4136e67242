// hLRC owned lines in the L1 core (declared in l1_core.hpp; models/hlrc).
#include "models/l1/l1_core.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <stdexcept>
#include <string>

namespace tlmgpu {

void L1Core::init_hlrc(StatGroup& stats) {
  local_atomics_ = &stats.counter("hlrc_local_atomics", "requests",
                                  "hLRC atomics performed here on an owned line");
  owned_installs_ =
      &stats.counter("hlrc_owned_installs", "lines", "hLRC grants installed as owned lines");
  owned_evictions_ = &stats.counter("hlrc_owned_evictions", "lines",
                                    "owned lines evicted for capacity (a release to L2)");
}

bool L1Core::owned(Addr line) const {
  const CacheLine* l = array_.find(line);
  return l && l->owned;
}

std::optional<Writeback> L1Core::install_owned(Addr line, const uint8_t* data) {
  if (!enabled() || !local_atomics_)
    throw std::logic_error("L1Core::install_owned needs an enabled L1 with atomic_mode = hlrc");
  std::optional<Writeback> wb;
  CacheLine* l = array_.find(line);
  if (l && l->owned) throw std::logic_error("L1Core::install_owned: line already owned");
  // Any copy of ours is older than the grant (its dirty bytes went to L2
  // before the ownership request): the grant's bytes replace it.
  if (l) array_.invalidate(*l);
  wb = fill(line, array_.all_sectors(), data); // allocates; the victim may be owned or dirty
  array_.find(line)->owned = true;
  ++*owned_installs_;
  return wb;
}

bool L1Core::local_atomic(GpuAccess& a, Addr line) {
  CacheLine* l = array_.find(line);
  if (!l || !l->owned) return false;
  if (a.lanes.size() > kMaxLanes) throw std::invalid_argument("L1Core: more lanes than kMaxLanes");
  const unsigned size = size_of(a.type);
  for (LaneOp& op : a.lanes) {
    if (op.offset % size != 0 || op.offset + size > spec_.line_bytes)
      throw std::invalid_argument("L1Core: lane offset " + std::to_string(op.offset) +
                                  " misaligned or outside the line");
    op.result = apply_atomic(a.op, a.type, &l->data[op.offset], op.operand, op.compare);
    l->dirty_bytes.set_range(op.offset, size);
  }
  array_.touch(*l);
  if (local_atomics_) ++*local_atomics_;
  return true;
}

std::optional<Writeback> L1Core::give_up(Addr line) {
  std::optional<Writeback> wb;
  CacheLine* l = array_.find(line);
  if (!l || !l->owned) return wb;
  wb.emplace();
  wb->line = line;
  wb->data = l->data;
  wb->dirty = l->dirty_bytes;
  wb->owned = true;
  array_.invalidate(*l);
  return wb;
}

std::vector<Writeback> L1Core::give_up_all() {
  std::vector<Writeback> out;
  array_.for_each_valid([&](CacheLine& l) {
    if (!l.owned) return;
    Writeback& wb = out.emplace_back();
    wb.line = l.line;
    wb.data = l.data;
    wb.dirty = l.dirty_bytes;
    wb.owned = true;
    array_.invalidate(l);
  });
  return out;
}

} // namespace tlmgpu
