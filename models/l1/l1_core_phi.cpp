// PHI's update-only lines in the L1 core (l1.atomic_mode = phi). Seed-000
// "PHI" and pitfall 23: a commutative red that misses allocates an update-only
// line at the op's identity without fetching; updates merge into it; it leaves
// as a Red carrying the partial values. See l1_core.hpp and README.md "PHI".
#include "models/l1/l1_core.hpp"

#include <stdexcept>
#include <string>

namespace tlmgpu {

void L1Core::init_phi(StatGroup& stats) {
  PhiState& p = phi_.emplace();
  p.updates = &stats.counter("phi_updates", "requests",
                             "eligible commutative reds performed in this L1 (one line each)");
  p.hits = &stats.counter("phi_update_hits", "requests",
                          "updates finding an update-only line of the same op and type");
  p.misses = &stats.counter("phi_update_misses", "requests",
                            "updates allocating an update-only line (no fetch; incl. op "
                            "mismatches and data copies of the line turned update-only)");
  p.update_evictions = &stats.counter("phi_update_evictions", "lines",
                                      "update-only lines evicted as LRU victims (capacity), by "
                                      "updates, fills or lazy store allocations");
  p.data_evictions = &stats.counter("phi_data_evictions_by_updates", "lines",
                                    "valid data lines evicted to make room for update-only lines");
  p.data_conversions = &stats.counter(
      "phi_data_conversions", "lines",
      "data copies of a line dropped because an update hit them (the line turns update-only)");
  p.op_mismatch = &stats.counter("phi_op_mismatch_evictions", "lines",
                                 "update-only lines evicted by an update of another op or type");
  p.conflict = &stats.counter("phi_conflict_evictions", "lines",
                              "update-only lines evicted because a load, store or non-eligible "
                              "atomic touched them");
  p.flush_packets = &stats.counter("phi_flush_packets", "packets",
                                   "partial-update reds sent by flushes (fences, kernel end)");
  p.packets = &stats.counter("phi_packets", "packets",
                             "partial-update reds sent to L2 (all evictions and flushes)");
  p.merged_lanes = &stats.counter("phi_merged_lanes", "lanes",
                                  "lanes merged into a word already holding a partial value "
                                  "(each saves one L2 update)");
  p.packet_lanes = &stats.counter("phi_packet_lanes", "lanes", "partial values sent to L2");
  stats.formula(
      "phi_update_hit_rate", "ratio", "phi_update_hits / phi_updates",
      [h = p.hits, n = p.updates](StatView v) { return ratio(h->value(v), n->value(v)); });
}

void L1Core::phi_refuse(const CacheLine& l, const char* who) const {
  throw std::logic_error(std::string("L1Core::") + who + " of the update-only line at address " +
                         std::to_string(l.line) + " (call phi_release() first)");
}

bool L1Core::phi_eligible(const GpuAccess& a) const {
  return phi_ && enabled() && commutative_red(a);
}

uint64_t L1Core::phi_drain(const CacheLine& l) {
  const size_t before = phi_->outbox.size();
  const uint64_t lanes = drain_partial_line(l, spec_.line_bytes, spec_.sector_bytes, phi_->outbox);
  *phi_->packets += phi_->outbox.size() - before;
  *phi_->packet_lanes += lanes;
  return phi_->outbox.size() - before;
}

L1Outcome L1Core::phi_update(const GpuAccess& a, Addr line) {
  if (!phi_eligible(a)) throw std::logic_error("L1Core::phi_update: request is not PHI-eligible");
  if (line % spec_.line_bytes != 0)
    throw std::logic_error("L1Core::phi_update: line address is not line-aligned");
  check_partial_lanes(a, spec_.line_bytes, "L1Core::phi_update"); // before any state changes
  PhiState& p = *phi_;
  ++*p.updates;
  L1Outcome out;
  out.kind = L1Outcome::Kind::Hit;
  CacheLine* l = array_.find(line);
  const bool hit = l && l->meta == (kPhiUpdateOnly | partial_meta(a.op, a.type));
  if (hit) {
    ++*p.hits;
    array_.touch(*l);
  } else if (l && update_only(*l)) { // op mismatch: flush the old partials, reuse the line
    ++*p.misses;
    ++*p.op_mismatch;
    phi_drain(*l);
    array_.touch(*l);
  } else if (l) {
    // A data copy (GPU L1s are not coherent: it may be stale) turns update-only,
    // as PHI's S -> U: its dirty bytes (write_back) go first.
    ++*p.misses;
    ++*p.data_conversions;
    if (l->dirty_bytes.any()) {
      out.writeback.emplace();
      out.writeback->line = line;
      out.writeback->data = l->data;
      out.writeback->dirty = l->dirty_bytes;
      ++writebacks_;
    }
    l->valid_bytes.clear();
    array_.touch(*l);
  } else { // allocate without fetching; the LRU way may hold data or updates
    ++*p.misses;
    bool was_evicted = false;
    CacheLine victim;
    l = &array_.allocate(line, &victim, &was_evicted);
    if (was_evicted) {
      if (!update_only(victim)) ++*p.data_evictions;
      out.writeback = evicted(victim);
    }
  }
  if (!hit) init_partial_line(*l, a.op, a.type, spec_.line_bytes, kPhiUpdateOnly);
  *p.merged_lanes += merge_partial_lanes(*l, a);
  return out;
}

bool L1Core::phi_release(Addr line) {
  if (!phi_) return false;
  CacheLine* l = array_.find(line);
  if (!l || !update_only(*l)) return false;
  ++*phi_->conflict;
  phi_drain(*l);
  array_.invalidate(*l);
  return true;
}

void L1Core::phi_flush() {
  if (!phi_) return;
  array_.for_each_valid([&](CacheLine& l) {
    if (!update_only(l)) return;
    *phi_->flush_packets += phi_drain(l);
    array_.invalidate(l);
  });
}

std::vector<PartialUpdatePacket> L1Core::take_phi_packets() {
  std::vector<PartialUpdatePacket> out;
  if (phi_) out.swap(phi_->outbox);
  return out;
}

bool L1Core::phi_update_only(Addr line) const {
  const CacheLine* l = array_.find(line);
  return phi_ && l && update_only(*l);
}

size_t L1Core::phi_update_lines() const {
  size_t n = 0;
  array_.for_each_valid([&](const CacheLine& l) { n += update_only(l) ? 1 : 0; });
  return n;
}

} // namespace tlmgpu
