#include "models/lab/lab_core.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

// Sub partials accumulate the subtrahends with add: (m - a) - b = m - (a + b).
// Every other mergeable op is associative and commutative with itself.
AtomicOp merge_op(AtomicOp op) {
  return op == AtomicOp::Sub ? AtomicOp::Add : op;
}

// meta: bits 0-3 op id (the paper's 4-bit field), bits 4-6 data type.
static_assert(static_cast<unsigned>(AtomicOp::Cas) < 16, "op id must fit in 4 bits");
uint32_t pack(AtomicOp op, DataType t) {
  return static_cast<uint32_t>(op) | static_cast<uint32_t>(t) << 4;
}
AtomicOp meta_op(uint32_t m) {
  return static_cast<AtomicOp>(m & 0xf);
}
DataType meta_type(uint32_t m) {
  return static_cast<DataType>((m >> 4) & 0x7);
}

uint64_t load_word(const uint8_t* p, unsigned n) {
  uint64_t v = 0;
  std::memcpy(&v, p, n); // little-endian host (checked in atomic_ops.cpp)
  return v;
}

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

std::string_view LabCore::mode_label() const {
  return strict_ ? "strict" : "paper_compatible (optimistic: buffers atomics whose return is used)";
}

bool LabCore::mergeable(AtomicOp op, DataType t) {
  switch (op) {
  case AtomicOp::Inc:
  case AtomicOp::Dec:
  case AtomicOp::Exch:
  case AtomicOp::Cas:
    return false;
  default:
    return atomic_supported(op, t) && atomic_identity(merge_op(op), t).has_value();
  }
}

bool LabCore::eligible(const GpuAccess& a) const {
  if (!enabled() || a.scope != Scope::Device || !mergeable(a.op, a.type)) return false;
  if (!strict_) return a.is_rmw();
  return a.kind == AccessKind::Red && a.order == MemOrder::Commutative;
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

void LabCore::init_line(CacheLine& l, AtomicOp op, DataType t) const {
  const uint64_t seed = *atomic_identity(merge_op(op), t);
  const unsigned n = size_of(t);
  for (unsigned off = 0; off < spec_.line_bytes; off += n)
    std::memcpy(&l.data[off], &seed, n);
  l.dirty_bytes.clear();
  l.meta = pack(op, t);
}

void LabCore::apply_lanes(CacheLine& l, const GpuAccess& a) {
  const unsigned n = size_of(a.type);
  const AtomicOp m = merge_op(a.op);
  for (unsigned i = 0; i < a.num_lanes; ++i) {
    const LaneOp& lane = a.lanes[i];
    if (l.dirty_bytes.test(lane.offset)) ++merged_lanes_;
    apply_atomic(m, a.type, &l.data[lane.offset], lane.operand, 0);
    l.dirty_bytes.set_range(lane.offset, n);
    ++buffered_lanes_;
  }
}

uint64_t LabCore::drain(const CacheLine& l, std::vector<LabEviction>& out) const {
  const DataType t = meta_type(l.meta);
  const unsigned n = size_of(t);
  LabEviction* cur = nullptr;
  uint64_t lanes = 0;
  for (unsigned off = 0; off < spec_.line_bytes; off += n) {
    if (!l.dirty_bytes.test(off)) continue;
    if (!cur || cur->num_lanes == kMaxLanes) {
      cur = &out.emplace_back();
      cur->line = l.line;
      cur->op = meta_op(l.meta);
      cur->type = t;
    }
    LaneOp& lane = cur->lanes[cur->num_lanes];
    lane.offset = static_cast<uint16_t>(off);
    lane.lane = cur->num_lanes++;
    lane.operand = load_word(&l.data[off], n);
    cur->sector_mask |= uint32_t{1} << (off / spec_.sector_bytes);
    ++lanes;
  }
  return lanes;
}

LabOutcome LabCore::access(const GpuAccess& a, Addr line) {
  if (!eligible(a)) throw std::logic_error("LabCore::access: request is not LAB-eligible");
  if (line % spec_.line_bytes != 0)
    throw std::logic_error("LabCore::access: line address is not line-aligned");
  const unsigned n = size_of(a.type);
  for (unsigned i = 0; i < a.num_lanes; ++i) // validate before any state changes
    if (a.lanes[i].offset % n != 0 || a.lanes[i].offset + n > spec_.line_bytes)
      throw std::logic_error("LabCore::access: lane " + std::to_string(i) + " offset " +
                             std::to_string(a.lanes[i].offset) + " misaligned or outside the line");
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
    f.num_lanes = a.num_lanes;
    for (unsigned i = 0; i < a.num_lanes; ++i) {
      f.lanes[i] = a.lanes[i];
      f.sector_mask |= uint32_t{1} << (a.lanes[i].offset / spec_.sector_bytes);
    }
    return out;
  }
  CacheLine* l = find(line);
  if (l && l->meta == pack(a.op, a.type)) {
    ++hits_;
    out.hit = true;
    if (!spec_.infinite) array_.touch(*l);
  } else if (l) { // [P] "flush the entry", then reuse it for the new op [R]
    ++misses_;
    ++op_mismatch_evictions_;
    evicted_lanes_ += drain(*l, out.evictions);
    init_line(*l, a.op, a.type);
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
    init_line(*l, a.op, a.type);
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

bool LabCore::empty() const {
  return occupancy() == 0;
}

size_t LabCore::occupancy() const {
  return spec_.infinite ? inf_.size() : array_.valid_lines();
}

} // namespace tlmgpu
