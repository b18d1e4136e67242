#include "models/scu/scu_core.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tlmgpu {

const char* ScuCommand::name() const {
  static const char* n[] = {"bitmask", "data", "access", "replication", "access_expansion"};
  return n[int(op)];
}

bool scu_unique_filter(uint32_t x, uint8_t* set, uint32_t ways, uint8_t* victim) {
  int empty = -1;
  for (uint32_t w = 0; w < ways; ++w) {
    uint32_t e;
    std::memcpy(&e, set + 4 * w, 4);
    if (e == x) return false;
    if (e == 0xffffffffu && empty < 0) empty = int(w);
  }
  uint32_t w = empty >= 0 ? uint32_t(empty) : *victim;
  if (empty < 0) *victim = uint8_t((*victim + 1) % ways);
  std::memcpy(set + 4 * w, &x, 4);
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
  }
  return "";
}

ScuCore::ScuCore(const ScuCommand& c, uint32_t line_bytes, uint32_t width,
                 uint32_t coalescer_entries, uint32_t coalescer_merge, uint32_t vector_fifo_bytes)
    : c_(c), line_(line_bytes), width_(width), entries_(coalescer_entries),
      merge_(coalescer_merge) {
  if (std::string p = c.problem(); !p.empty()) throw std::invalid_argument("SCU command: " + p);
  // Bytes of vector parameters per element: what the vector FIFO holds.
  uint32_t per = (c.mask ? 4 : 0) + (c.index ? 4 : 0) + (c.count ? 4 : 0);
  chunk_ = per ? std::max<uint64_t>(1, vector_fifo_bytes / per) : 1u << 20;
  chunks_ = (c.n + chunk_ - 1) / chunk_;
}

uint64_t ScuCore::chunk_count(uint64_t k) const {
  return std::min<uint64_t>(chunk_, c_.n - k * chunk_);
}

std::vector<Addr> ScuCore::vector_lines(uint64_t k) const {
  std::vector<Addr> lines;
  const uint64_t first = chunk_first(k), n = chunk_count(k);
  for (Addr base : {c_.mask, c_.index, c_.count}) {
    if (!base || !n) continue;
    const Addr lo = (base + 4 * first) / line_ * line_, hi = base + 4 * (first + n);
    for (Addr l = lo; l < hi; l += line_)
      lines.push_back(l);
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

std::vector<ScuElement> ScuCore::elements(uint64_t k, const ByteReader& vec) const {
  std::vector<ScuElement> e;
  const uint64_t first = chunk_first(k), end = first + chunk_count(k);
  const uint32_t sz = c_.elem_bytes;
  for (uint64_t i = first; i < end; ++i) {
    switch (c_.op) {
    case ScuOp::Bitmask:
      e.push_back({c_.data + sz * i, 1});
      break;
    case ScuOp::Data:
      if (keep(i, vec)) e.push_back({c_.data + sz * i, 1});
      break;
    case ScuOp::Access:
      if (keep(i, vec)) e.push_back({c_.data + uint64_t(sz) * u32(c_.index, i, vec), 1});
      break;
    case ScuOp::Replication:
      if (keep(i, vec))
        if (uint32_t r = u32(c_.count, i, vec)) e.push_back({c_.data + sz * i, r});
      break;
    case ScuOp::AccessExpansion:
      if (keep(i, vec)) {
        const uint64_t at = u32(c_.index, i, vec), cnt = u32(c_.count, i, vec);
        for (uint64_t j = 0; j < cnt; ++j)
          e.push_back({c_.data + sz * (at + j), 1});
      }
      break;
    }
  }
  return e;
}

std::vector<ScuLineRequest> ScuCore::data_requests(const std::vector<ScuElement>& e) const {
  std::vector<ScuLineRequest> reqs;
  std::unordered_map<Addr, size_t> open; // line -> its latest request
  for (size_t g = 0; g < e.size(); g += width_) {
    // One cycle's group: each distinct line it touches is one access.
    Addr seen[64];
    uint32_t nseen = 0;
    for (size_t i = g; i < std::min(e.size(), g + width_); ++i) {
      const Addr line = e[i].addr / line_ * line_;
      if (std::find(seen, seen + nseen, line) != seen + nseen) continue;
      seen[nseen++] = line;
      auto it = open.find(line);
      // Still among the last `entries_` requests (in flight) and not full.
      if (it != open.end() && reqs.size() - it->second <= entries_ &&
          reqs[it->second].groups < merge_) {
        ++reqs[it->second].groups;
      } else {
        open[line] = reqs.size();
        reqs.push_back({line, 1});
      }
    }
  }
  return reqs;
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
  auto emit = [&](Addr a, uint32_t times) {
    uint8_t b[8];
    mem(a, b, sz);
    for (uint32_t r = 0; r < times; ++r)
      out.insert(out.end(), b, b + sz);
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
  return out;
}

} // namespace tlmgpu
