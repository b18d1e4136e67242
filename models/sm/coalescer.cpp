#include "models/sm/coalescer.hpp"

#include <bit>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

std::string hex(Addr a) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
  return buf;
}

AccessKind access_kind(WarpInstr::Kind k) {
  switch (k) {
  case WarpInstr::Kind::Load:
    return AccessKind::Load;
  case WarpInstr::Kind::Store:
    return AccessKind::Store;
  case WarpInstr::Kind::Atomic:
    return AccessKind::Atomic;
  case WarpInstr::Kind::Red:
    return AccessKind::Red;
  default:
    throw std::invalid_argument("coalescer: " + std::string(to_string(k)) +
                                " is not a global memory instruction");
  }
}

bool pow2(uint32_t v) {
  return v && !(v & (v - 1));
}

} // namespace

Coalescer::Coalescer(uint32_t line_bytes, uint32_t sector_bytes)
    : line_bytes_(line_bytes), sector_bytes_(sector_bytes),
      sector_shift_(unsigned(std::countr_zero(sector_bytes))) {
  if (!pow2(line_bytes) || line_bytes > kMaxLineBytes || !pow2(sector_bytes) ||
      sector_bytes > line_bytes || line_bytes / sector_bytes > 32)
    throw std::invalid_argument("coalescer: line of " + std::to_string(line_bytes) +
                                " bytes with sectors of " + std::to_string(sector_bytes) +
                                " bytes: need powers of two, line <= " +
                                std::to_string(kMaxLineBytes) + ", at most 32 sectors");
}

void Coalescer::check_lanes(const WarpInstr& in) const {
  const uint32_t size = in.size;
  if (size != 1 && size != 2 && size != 4 && size != 8)
    throw std::invalid_argument("coalescer: access size " + std::to_string(size) +
                                " is not 1, 2, 4 or 8 bytes");
  // Every instruction is checked, and almost all are fine: one branch-free
  // pass over the lanes up to the highest active one (a power-of-two size
  // aligned within the line cannot cross it; lanes above a warp's width hold
  // no value and are never read), the lane-by-lane search only to name a bad
  // lane.
  const uint64_t bits = in.mask.bits();
  const unsigned top = kMaxLanes - unsigned(std::countl_zero(bits));
  Addr misaligned = 0;
  for (unsigned l = 0; l < top; ++l)
    misaligned |= in.addr[l] & (size - 1) & (Addr{0} - ((bits >> l) & 1));
  if (misaligned == 0 && size <= line_bytes_) return;
  in.mask.for_each([&](unsigned l) {
    const Addr a = in.addr[l];
    if (a % size)
      throw std::invalid_argument("lane " + std::to_string(l) + ": address " + hex(a) +
                                  " is not aligned to its " + std::to_string(size) +
                                  "-byte access");
    if ((a - line_of(a)) + size > line_bytes_)
      throw std::invalid_argument("lane " + std::to_string(l) + ": " + std::to_string(size) +
                                  "-byte access at " + hex(a) + " crosses a " +
                                  std::to_string(line_bytes_) + "-byte line");
  });
}

LineRequest& Coalescer::add_request(const WarpInstr& in, Addr line) {
  if (used_ == buf_.size()) buf_.emplace_back();
  LineRequest& r = buf_[used_++];
  r.line = line;
  r.lane_mask = 0;
  r.size = in.size;
  // Field by field rather than `r.access = {}`: clearing keeps the lanes'
  // slab, so a reused request takes no storage from the free list.
  GpuAccess& g = r.access;
  g.kind = access_kind(in.kind);
  g.op = in.op;
  g.type = in.type;
  g.order = in.order;
  g.scope = in.scope;
  g.remote = in.remote;
  g.sector_mask = 0;
  g.src_sm = g.src_warp = 0;
  g.src_cta = 0;
  g.txn_id = g.parent_id = 0;
  g.lanes.clear();
  g.serviced_by = GpuAccess::Level::None;
  if (in.kind == WarpInstr::Kind::Store) {
    std::memset(r.data.data(), 0, line_bytes_);
    std::memset(r.byte_enable.data(), 0, line_bytes_);
  }
  return r;
}

std::span<const LineRequest> Coalescer::coalesce(const WarpInstr& in) {
  access_kind(in.kind); // rejects non-global kinds before any work
  used_ = 0;
  check_lanes(in);
  if (in.kind == WarpInstr::Kind::Atomic || in.kind == WarpInstr::Kind::Red)
    coalesce_rmw(in);
  else
    coalesce_lines(in);
  ++instructions_;
  requests_ += used_;
  for (size_t i = 0; i < used_; ++i)
    sectors_ += unsigned(std::popcount(buf_[i].access.sector_mask));
  return {buf_.data(), used_};
}

void Coalescer::coalesce_lines(const WarpInstr& in) {
  const bool store = in.kind == WarpInstr::Kind::Store;
  in.mask.for_each([&](unsigned l) {
    const Addr a = in.addr[l];
    const Addr line = line_of(a);
    LineRequest* r = nullptr;
    for (size_t i = 0; i < used_ && !r; ++i)
      if (buf_[i].line == line) r = &buf_[i];
    if (!r) r = &add_request(in, line);
    const uint32_t off = uint32_t(a - line);
    r->lane_mask |= uint64_t{1} << l;
    r->access.sector_mask |= sector_bit(off);
    if (store) {
      // Ascending lane order makes the highest lane's bytes the ones that stay.
      const uint64_t v = in.operand[l];
      for (uint32_t b = 0; b < in.size; ++b) {
        r->data[off + b] = uint8_t(v >> (8 * b));
        r->byte_enable[off + b] = 0xff;
      }
    }
  });
}

void Coalescer::coalesce_rmw(const WarpInstr& in) {
  struct Group {
    Addr line;
    uint32_t requests; // = the most lanes any one word of the line has
    size_t base;       // index of its first request
  };
  std::array<Group, kMaxLanes> groups;
  std::array<uint8_t, kMaxLanes> group_of{}, rank{};
  unsigned ngroups = 0;
  // rank = how many lower active lanes hit the same word (alignment makes
  // "same word" the same address). Lanes come in ascending order, so it is
  // the count of that address so far: a small open-addressing table of
  // counts instead of comparing each lane with every lower one (issue 13:
  // that quadratic loop was most of coalesce_rmw, 4 % of the AT histogram).
  constexpr unsigned kSlots = 2 * kMaxLanes; // at most half full
  std::array<Addr, kSlots> seen;
  std::array<uint8_t, kSlots> count{}; // 0: the slot is free
  in.mask.for_each([&](unsigned l) {
    const Addr a = in.addr[l];
    unsigned h = unsigned((a * 0x9E3779B97F4A7C15ull) >> 56) % kSlots;
    while (count[h] != 0 && seen[h] != a)
      h = (h + 1) % kSlots;
    seen[h] = a;
    const uint8_t r = count[h]++;
    rank[l] = r;
    const Addr line = line_of(a);
    unsigned g = 0;
    while (g < ngroups && groups[g].line != line)
      ++g;
    if (g == ngroups) groups[ngroups++] = {line, 0, 0};
    group_of[l] = uint8_t(g);
    if (groups[g].requests < r + 1u) groups[g].requests = r + 1u;
  });
  for (unsigned g = 0; g < ngroups; ++g) {
    groups[g].base = used_;
    for (uint32_t k = 0; k < groups[g].requests; ++k)
      add_request(in, groups[g].line);
  }
  in.mask.for_each([&](unsigned l) {
    const Group& g = groups[group_of[l]];
    LineRequest& r = buf_[g.base + rank[l]];
    const uint32_t off = uint32_t(in.addr[l] - g.line);
    r.lane_mask |= uint64_t{1} << l;
    r.access.sector_mask |= sector_bit(off);
    r.access.lanes.push_back(LaneOp{uint16_t(off), uint8_t(l), in.operand[l], in.compare[l], 0});
  });
}

void Coalescer::scatter_load(const WarpInstr& in, const LineRequest& req, const uint8_t* line_data,
                             Lanes<uint64_t>& results) const {
  Mask(req.lane_mask).for_each([&](unsigned l) {
    const uint32_t off = uint32_t(in.addr[l] - req.line);
    uint64_t v = 0;
    for (uint32_t b = 0; b < req.size; ++b)
      v |= uint64_t(line_data[off + b]) << (8 * b);
    results[l] = v;
  });
}

void Coalescer::scatter_atomic(const GpuAccess& done, Lanes<uint64_t>& results) {
  for (const LaneOp& op : done.lanes)
    results[op.lane] = op.result;
}

} // namespace tlmgpu
