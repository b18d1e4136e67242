#include "models/scu/scu_core.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tlmgpu {

const char* ScuCommand::name() const {
  static const char* n[] = {"bitmask", "data", "access", "replication", "access_expansion"};
  return n[int(op)];
}

namespace {
// The way of x in a set of `ways` entries of `entry` bytes (ID first), or
// -1 with *empty the first empty way (-1: none).
int find_way(uint32_t x, const uint8_t* set, uint32_t ways, uint32_t entry, int* empty) {
  *empty = -1;
  for (uint32_t w = 0; w < ways; ++w) {
    uint32_t e;
    std::memcpy(&e, set + entry * w, 4);
    if (e == x) return int(w);
    if (e == 0xffffffffu && *empty < 0) *empty = int(w);
  }
  return -1;
}
// The way a new ID goes to: an empty one, else the round-robin victim.
uint32_t insert_way(int empty, uint32_t ways, uint8_t* victim) {
  if (empty >= 0) return uint32_t(empty);
  const uint32_t w = *victim;
  *victim = uint8_t((*victim + 1) % ways);
  return w;
}
} // namespace

bool scu_unique_filter(uint32_t x, uint8_t* set, uint32_t ways, uint8_t* victim) {
  int empty;
  if (find_way(x, set, ways, 4, &empty) >= 0) return false;
  std::memcpy(set + 4 * insert_way(empty, ways, victim), &x, 4);
  return true;
}

bool scu_best_cost_filter(uint32_t x, uint32_t cost, uint8_t* set, uint32_t ways, uint8_t* victim) {
  int empty;
  int w = find_way(x, set, ways, 8, &empty);
  if (w >= 0) {
    uint32_t best;
    std::memcpy(&best, set + 8 * w + 4, 4);
    if (best <= cost) return false;
  } else {
    w = int(insert_way(empty, ways, victim));
    std::memcpy(set + 8 * w, &x, 4);
  }
  std::memcpy(set + 8 * w + 4, &cost, 4);
  return true;
}

std::string ScuCommand::problem() const {
  if (elem_bytes != 4 && elem_bytes != 8) return "elem_bytes must be 4 or 8";
  if (!data) return "data: no vector";
  if (!out && n) return "out: no vector";
  const bool needs_mask = op == ScuOp::Data || op == ScuOp::Access;
  if (needs_mask && !mask) return std::string(name()) + ": needs a mask";
  if ((op == ScuOp::Access || op == ScuOp::AccessExpansion) && !index)
    return std::string(name()) + ": needs an index vector";
  if ((op == ScuOp::Replication || op == ScuOp::AccessExpansion) && !count)
    return std::string(name()) + ": needs a count vector";
  if (int(cmp) > int(ScuCmp::Ge)) return "cmp: unknown comparison";
  if (filter != ScuFilter::None) {
    if (op == ScuOp::Bitmask) return "filter: a bitmask operation has no elements to filter";
    if (elem_bytes != 4) return "filter: the unique filter keys 4-byte elements";
    // No table at all is the ISCU's case (the module checks scu.filter_unit).
    if (!hash.base != !hash.sets) return "filter: hash.base and hash.sets go together";
    if (hash.sets && (hash.ways < 1 || hash.ways > 32)) return "filter: hash.ways must be 1..32";
    const uint32_t entry = filter == ScuFilter::BestCost ? 8 : 4;
    if (hash.sets && hash.entry_bytes != entry)
      return "filter: hash.entry_bytes must be " + std::to_string(entry) + " for this filter";
    if (apply) return "filter: a filtering operation cannot also apply a filter vector";
  }
  if (filter == ScuFilter::BestCost && !cost)
    return "filter: the best-cost filter needs a cost vector";
  if (group) {
    if (!generate) return "group: grouping writes a gather list (generate mode only)";
    if (filter != ScuFilter::None) return "group: filter and group are separate operations";
    if (op == ScuOp::Bitmask) return "group: a bitmask operation has no elements to group";
    if (elem_bytes != 4) return "group: the grouping key is a 4-byte element";
    if (!group_target) return "group: needs group_target (the array the elements index)";
    if (!hash.base || !hash.sets || hash.ways < 1 || hash.ways > 32)
      return "group: needs a hash table (hash.base, hash.sets, 1..32 ways)";
    if (hash.entry_bytes < 8 || hash.entry_bytes % 4)
      return "group: hash.entry_bytes must be a multiple of 4, at least 8 (tag + positions)";
    if (apply || order) return "group: a grouping operation applies no vectors";
  }
  if (order && (generate || op == ScuOp::Bitmask || filter != ScuFilter::None))
    return "order: a gather list applies to a compaction without an inline filter (an apply "
           "vector may drop elements)";
  if (filter == ScuFilter::Sum && (cost || !cost_add || hash.sets || generate || !cost_out))
    return "filter: the sum reduction adds cost_add (no cost, no table), inline, into cost_out";
  if (filter != ScuFilter::BestCost && filter != ScuFilter::Sum && (cost || cost_add))
    return "cost: only the best-cost filter reads costs";
  if (generate && filter == ScuFilter::None && !group)
    return "generate: a filter vector needs a filter";
  if (cost_out && ((filter != ScuFilter::BestCost && filter != ScuFilter::Sum) || generate))
    return "cost_out: only an inline best-cost filter writes the survivors' costs";
  if (apply && op == ScuOp::Bitmask) return "apply: a bitmask operation has no elements to filter";
  return "";
}

ScuCore::ScuCore(const ScuCommand& c, uint32_t line_bytes, uint32_t width,
                 uint32_t coalescer_entries, uint32_t coalescer_merge, uint32_t vector_fifo_bytes)
    : c_(c), line_(line_bytes), width_(width), entries_(coalescer_entries),
      merge_(coalescer_merge) {
  if (std::string p = c.problem(); !p.empty()) throw std::invalid_argument("SCU command: " + p);
  // Bytes of vector parameters per element: what the vector FIFO holds.
  uint32_t per = (c.mask ? 4 : 0) + (c.index ? 4 : 0) + (c.count ? 4 : 0) + (c.cost_add ? 4 : 0);
  chunk_ = per ? std::max<uint64_t>(1, vector_fifo_bytes / per) : 1u << 20;
  chunks_ = (c.n + chunk_ - 1) / chunk_;
}

uint64_t ScuCore::chunk_count(uint64_t k) const {
  return std::min<uint64_t>(chunk_, c_.n - k * chunk_);
}

std::vector<Addr> ScuCore::vector_lines(uint64_t first, uint64_t end) const {
  std::vector<Addr> lines;
  for (Addr base : {c_.mask, c_.index, c_.count, c_.cost_add}) {
    if (!base || end <= first) continue;
    for (Addr l = (base + 4 * first) / line_ * line_; l < base + 4 * end; l += line_)
      lines.push_back(l);
  }
  return lines;
}

std::vector<Addr> ScuCore::vector_lines(uint64_t k) const {
  const uint64_t first = chunk_first(k), end = first + chunk_count(k), step = slice_elements();
  // Slice by slice (each slice's lines of every vector), so the address
  // generator can start a slice while the later ones are still in flight;
  // a line two slices share is read once.
  std::vector<Addr> lines;
  const Addr bases[] = {c_.mask, c_.index, c_.count, c_.cost_add};
  Addr next[4] = {0, 0, 0, 0}; // per vector: the first line not listed yet
  for (uint64_t s = first; s < end; s = (s / step + 1) * step) {
    const uint64_t e = std::min(end, (s / step + 1) * step);
    for (int v = 0; v < 4; ++v) {
      if (!bases[v]) continue;
      for (Addr l = (bases[v] + 4 * s) / line_ * line_; l < bases[v] + 4 * e; l += line_)
        if (l >= next[v]) lines.push_back(l), next[v] = l + line_;
    }
  }
  return lines;
}

uint32_t ScuCore::u32(Addr base, uint64_t i, const ByteReader& vec) const {
  uint32_t v;
  vec(base + 4 * i, &v, 4);
  return v;
}

bool ScuCore::keep(uint64_t i, const ByteReader& vec) const {
  return !c_.mask || u32(c_.mask, i, vec) != 0;
}

std::vector<ScuElement> ScuCore::elements(uint64_t first, uint64_t end,
                                          const ByteReader& vec) const {
  std::vector<ScuElement> e;
  const uint32_t sz = c_.elem_bytes;
  for (uint64_t i = first; i < end; ++i) {
    switch (c_.op) {
    case ScuOp::Bitmask:
      e.push_back({c_.data + sz * i, 1, i});
      break;
    case ScuOp::Data:
      if (keep(i, vec)) e.push_back({c_.data + sz * i, 1, i});
      break;
    case ScuOp::Access:
      if (keep(i, vec)) e.push_back({c_.data + uint64_t(sz) * u32(c_.index, i, vec), 1, i});
      break;
    case ScuOp::Replication:
      if (keep(i, vec))
        if (uint32_t r = u32(c_.count, i, vec)) e.push_back({c_.data + sz * i, r, i});
      break;
    case ScuOp::AccessExpansion:
      if (keep(i, vec)) {
        const uint64_t at = u32(c_.index, i, vec), cnt = u32(c_.count, i, vec);
        for (uint64_t j = 0; j < cnt; ++j)
          e.push_back({c_.data + sz * (at + j), 1, i});
      }
      break;
    }
  }
  return e;
}

std::vector<Addr> ScuCore::apply_lines(uint64_t pos, uint64_t n) const {
  std::vector<Addr> lines;
  if (!n) return lines;
  for (Addr l = (c_.apply + 4 * pos) / line_ * line_; l < c_.apply + 4 * (pos + n); l += line_)
    lines.push_back(l);
  return lines;
}

std::vector<ScuElement> ScuCore::applied(const std::vector<ScuElement>& e, uint64_t pos,
                                         const ByteReader& vec) const {
  std::vector<ScuElement> kept;
  for (const ScuElement& x : e)
    for (uint32_t r = 0; r < x.repeat; ++r)
      if (u32(c_.apply, pos++, vec)) kept.push_back({x.addr, 1, x.row});
  return kept;
}

std::vector<uint32_t> ScuCore::costs(const std::vector<ScuElement>& e, const ByteReader& data,
                                     const ByteReader& vec) const {
  std::vector<uint32_t> c;
  for (const ScuElement& x : e) {
    uint32_t w = 0; // Sum: the row's weight alone (float bits, nothing added)
    if (c_.cost) data(cost_addr(x), &w, 4);
    const uint64_t sum = uint64_t(w) + (c_.cost_add ? u32(c_.cost_add, x.row, vec) : 0);
    c.insert(c.end(), x.repeat, uint32_t(std::min<uint64_t>(sum, 0xfffffffeu)));
  }
  return c;
}

std::vector<ScuLineRequest> ScuCore::data_requests(const std::vector<ScuElement>& e) const {
  ScuCoalescer co = coalescer();
  co.add(e, true);
  return co.requests();
}

size_t ScuCoalescer::add(const std::vector<ScuElement>& e, bool last) {
  const size_t before = reqs_.size();
  for (const ScuElement& x : e)
    pending_.push_back(x.addr / line_ * line_);
  size_t g = 0;
  for (; g + width_ <= pending_.size(); g += width_)
    group(g, g + width_);
  if (last && g < pending_.size()) {
    group(g, pending_.size());
    g = pending_.size();
  }
  pending_.erase(pending_.begin(), pending_.begin() + g);
  return reqs_.size() - before;
}

void ScuCoalescer::group(size_t from, size_t to) {
  // One cycle's group: each distinct line it touches is one lookup.
  Addr seen[64];
  uint32_t nseen = 0;
  for (size_t i = from; i < to; ++i) {
    const Addr line = pending_[i];
    if (std::find(seen, seen + nseen, line) != seen + nseen) continue;
    seen[nseen++] = line;
    auto it = open_.find(line);
    // Still among the last `entries_` requests (in flight) and not full.
    if (it != open_.end() && reqs_.size() - it->second <= entries_ &&
        reqs_[it->second].groups < merge_) {
      ++reqs_[it->second].groups;
    } else {
      open_[line] = reqs_.size();
      reqs_.push_back({line, 1, lookups_});
    }
    ++lookups_;
  }
}

namespace {
bool compare(ScuCmp c, uint64_t a, uint64_t b) {
  switch (c) {
  case ScuCmp::Eq:
    return a == b;
  case ScuCmp::Ne:
    return a != b;
  case ScuCmp::Lt:
    return a < b;
  case ScuCmp::Le:
    return a <= b;
  case ScuCmp::Gt:
    return a > b;
  case ScuCmp::Ge:
    return a >= b;
  }
  return false;
}
} // namespace

std::vector<uint8_t> ScuCore::output(uint64_t, const std::vector<ScuElement>& e,
                                     const ByteReader& data) const {
  std::vector<uint8_t> out;
  const uint32_t sz = c_.elem_bytes;
  uint8_t buf[8];
  for (const ScuElement& x : e) {
    data(x.addr, buf, sz);
    if (c_.op == ScuOp::Bitmask) {
      uint64_t v = 0;
      std::memcpy(&v, buf, sz);
      uint32_t flag = compare(c_.cmp, v, c_.ref) ? 1 : 0;
      out.insert(out.end(), reinterpret_cast<uint8_t*>(&flag),
                 reinterpret_cast<uint8_t*>(&flag) + 4);
      continue;
    }
    for (uint32_t r = 0; r < x.repeat; ++r)
      out.insert(out.end(), buf, buf + sz);
  }
  return out;
}

std::vector<uint8_t> scu_reference(const ScuCommand& c, const ByteReader& mem) {
  if (std::string p = c.problem(); !p.empty()) throw std::invalid_argument("SCU command: " + p);
  std::vector<uint8_t> out;
  const uint32_t sz = c.elem_bytes;
  auto u32 = [&](Addr base, uint64_t i) {
    uint32_t v;
    mem(base + 4 * i, &v, 4);
    return v;
  };
  uint64_t pos = 0; // apply: the element's position in the unfiltered output
  auto emit = [&](Addr a, uint32_t times) {
    uint8_t b[8];
    mem(a, b, sz);
    for (uint32_t r = 0; r < times; ++r)
      // With a gather list the flags are read at the gathered positions.
      if (!c.apply || c.order || u32(c.apply, pos++)) out.insert(out.end(), b, b + sz);
  };
  for (uint64_t i = 0; i < c.n; ++i) {
    const bool keep = !c.mask || u32(c.mask, i) != 0;
    switch (c.op) {
    case ScuOp::Bitmask: {
      uint64_t v = 0;
      mem(c.data + sz * i, &v, sz);
      uint32_t f = compare(c.cmp, v, c.ref);
      out.insert(out.end(), reinterpret_cast<uint8_t*>(&f), reinterpret_cast<uint8_t*>(&f) + 4);
      break;
    }
    case ScuOp::Data:
      if (keep) emit(c.data + sz * i, 1);
      break;
    case ScuOp::Access:
      if (keep) emit(c.data + uint64_t(sz) * u32(c.index, i), 1);
      break;
    case ScuOp::Replication:
      if (keep) emit(c.data + sz * i, u32(c.count, i));
      break;
    case ScuOp::AccessExpansion:
      if (keep)
        for (uint32_t j = 0; j < u32(c.count, i); ++j)
          emit(c.data + sz * (uint64_t(u32(c.index, i)) + j), 1);
      break;
    }
  }
  if (!c.order) return out;
  // A gather list: element k of the output is element order[k] of the plain
  // one, unless a filter vector drops position order[k] (notes P12).
  std::vector<uint8_t> gathered;
  for (uint64_t k = 0; k < out.size() / sz; ++k) {
    const uint32_t pos_k = u32(c.order, k);
    const uint64_t at = uint64_t(pos_k) * sz;
    if (at + sz > out.size()) throw std::invalid_argument("SCU command: order names no element");
    if (c.apply && !u32(c.apply, pos_k)) continue;
    gathered.insert(gathered.end(), out.begin() + at, out.begin() + at + sz);
  }
  return gathered;
}

} // namespace tlmgpu
