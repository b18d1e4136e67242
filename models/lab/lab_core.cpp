#include "models/lab/lab_core.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

const LabSpec& checked(const LabSpec& s) {
  if (s.mode != "strict" && s.mode != "paper_compatible")
    throw ConfigError("lab.mode: unknown value '" + s.mode + "'");
  if (s.variant != "normal" && s.variant != "serialization_only" && s.variant != "no_flush_cost")
    throw ConfigError("lab.variant: unknown value '" + s.variant + "'");
  if (s.sectors_per_line == 0 || (s.entries > 0 && s.sets == 0))
    throw ConfigError("LabCore: spec is not derived (call LabSpec::derive)");
  return s;
}

} // namespace

LabCore::LabCore(const LabSpec& spec, StatGroup& stats)
    : spec_(checked(spec)), strict_(spec.mode == "strict"),
      variant_(spec.variant == "serialization_only" ? Variant::SerializationOnly
               : spec.variant == "no_flush_cost"    ? Variant::NoFlushCost
                                                    : Variant::Normal),
      array_(spec.infinite ? 0 : spec.sets, std::max(spec.assoc, 1u), spec.line_bytes,
             spec.sector_bytes),
      accesses_(stats.counter("accesses", "requests", "eligible atomic requests (one line each)")),
      hits_(stats.counter("hits", "requests", "requests finding a line of the same op and type")),
      misses_(stats.counter("misses", "requests",
                            "requests allocating a line (incl. op mismatches and every "
                            "serialization_only request)")),
      forwarded_(stats.counter("forwarded", "requests",
                               "requests forwarded to L2 unbuffered (serialization_only)")),
      buffered_lanes_(stats.counter("buffered_lanes", "lanes", "lanes performed in the LAB")),
      merged_lanes_(stats.counter("merged_lanes", "lanes",
                                  "lanes merged into a word already holding a partial value "
                                  "(each saves one L2 update)")),
      op_mismatch_evictions_(stats.counter("op_mismatch_evictions", "lines",
                                           "lines evicted by a request of another op or type")),
      capacity_evictions_(stats.counter("capacity_evictions", "lines", "LRU victims evicted")),
      evicted_lanes_(stats.counter("evicted_lanes", "lanes",
                                   "partial values sent by capacity and op-mismatch evictions")),
      flush_evictions_(stats.counter("flush_evictions", "lines", "lines sent by flush()")),
      flushed_lanes_(stats.counter("flushed_lanes", "lanes", "partial values sent by flush()")) {
  stats.formula(
      "miss_rate", "ratio", "misses / accesses",
      [&m = misses_, &n = accesses_](StatView v) { return ratio(m.value(v), n.value(v)); });
}

std::string_view LabCore::mode_label(const LabSpec& s) {
  return s.mode == "strict"
             ? "strict"
             : "paper_compatible (optimistic: buffers device atomics of any order; returned "
               "values come from a golden memory)";
}

bool LabCore::eligible(const GpuAccess& a) const {
  if (!enabled() || a.scope != Scope::Device || !mergeable(a.op, a.type)) return false;
  // paper_compatible buffers reds and value-returning atomics of any order;
  // the SM answers the latter from the GPU's golden memory (pitfall 4,
  // golden_memory.hpp), as the authors' functional simulation does.
  if (!strict_) return a.is_rmw();
  return commutative_red(a);
}

CacheLine* LabCore::find(Addr line) {
  if (!spec_.infinite) return array_.find(line);
  auto it = inf_.find(line);
  return it == inf_.end() ? nullptr : &it->second;
}

CacheLine& LabCore::install(Addr line, CacheLine* victim, bool* evicted) {
  if (!spec_.infinite) return array_.allocate(line, victim, evicted);
  *evicted = false;
  CacheLine& l = inf_[line];
  l.line = line;
  l.valid = true;
  return l;
}

void LabCore::apply_lanes(CacheLine& l, const GpuAccess& a) {
  const bool lose = spec_.inject_fault == "lose_update";
  if ((lose || spec_.inject_fault == "double_count") &&
      fault_pending_) { // test hook, see lab.inject_fault
    fault_pending_ = false;
    if (lose) return;
    merge_partial_lanes(l, a); // double_count: merged once here and once below
  }
  merged_lanes_ += merge_partial_lanes(l, a);
  buffered_lanes_ += a.lanes.size();
}

LabOutcome LabCore::access(const GpuAccess& a, Addr line) {
  if (!eligible(a)) throw std::logic_error("LabCore::access: request is not LAB-eligible");
  if (line % spec_.line_bytes != 0)
    throw std::logic_error("LabCore::access: line address is not line-aligned");
  check_partial_lanes(a, spec_.line_bytes, "LabCore::access"); // before any state changes
  ++accesses_;
  LabOutcome out;
  if (serialization_only()) {
    ++misses_;
    ++forwarded_;
    out.kind = LabOutcome::Kind::Forward;
    LabEviction& f = out.forward.emplace();
    f.line = line;
    f.op = a.op;
    f.type = a.type;
    f.lanes = a.lanes;
    for (const LaneOp& op : a.lanes)
      f.sector_mask |= uint32_t{1} << (op.offset / spec_.sector_bytes);
    return out;
  }
  CacheLine* l = find(line);
  if (l && l->meta == partial_meta(a.op, a.type)) {
    ++hits_;
    out.hit = true;
    if (!spec_.infinite) array_.touch(*l);
  } else if (l) { // [P] "flush the entry", then reuse it for the new op [R]
    ++misses_;
    ++op_mismatch_evictions_;
    evicted_lanes_ += drain(*l, out.evictions);
    init_partial_line(*l, a.op, a.type, spec_.line_bytes);
    if (!spec_.infinite) array_.touch(*l);
  } else { // allocate without fetching; the victim leaves off the critical path
    ++misses_;
    CacheLine victim;
    bool evicted = false;
    l = &install(line, &victim, &evicted);
    if (evicted) {
      ++capacity_evictions_;
      evicted_lanes_ += drain(victim, out.evictions);
    }
    init_partial_line(*l, a.op, a.type, spec_.line_bytes);
  }
  apply_lanes(*l, a);
  return out;
}

std::vector<LabEviction> LabCore::flush() {
  std::vector<LabEviction> out;
  if (spec_.infinite) {
    std::vector<Addr> lines;
    lines.reserve(inf_.size());
    for (const auto& [line, l] : inf_)
      lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    for (Addr line : lines)
      flushed_lanes_ += drain(inf_.at(line), out);
    flush_evictions_ += lines.size();
    inf_.clear();
    return out;
  }
  if (!array_.enabled()) return out;
  array_.for_each_valid([&](CacheLine& l) {
    flushed_lanes_ += drain(l, out);
    ++flush_evictions_;
    array_.invalidate(l);
  });
  return out;
}

bool LabCore::sends_on_access(const GpuAccess& a, Addr line) const {
  if (serialization_only()) return true;
  if (spec_.infinite) {
    auto it = inf_.find(line);
    return it != inf_.end() && it->second.meta != partial_meta(a.op, a.type);
  }
  if (const CacheLine* l = array_.find(line)) return l->meta != partial_meta(a.op, a.type);
  // A miss evicts only when its set has no invalid way. Called only while the
  // SM's injection queue is full, so the scan over the lines is rare.
  const uint32_t set = array_.set_of(line);
  uint32_t valid = 0;
  array_.for_each_valid([&](const CacheLine& c) { valid += array_.set_of(c.line) == set; });
  return valid == array_.ways();
}

bool LabCore::empty() const {
  return occupancy() == 0;
}

size_t LabCore::occupancy() const {
  return spec_.infinite ? inf_.size() : array_.valid_lines();
}

} // namespace tlmgpu
