#include "models/traffic/traffic_core.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

namespace tlmgpu {

std::string SharedCounterLog::verify(uint64_t final_value) const {
  std::vector<uint64_t> v = seen_;
  std::sort(v.begin(), v.end());
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != i) {
      std::ostringstream os;
      os << "shared counter: returned old values are not 0.." << v.size() - 1 << " (position " << i
         << " holds " << v[i] << ")";
      return os.str();
    }
  if (final_value != v.size())
    return "shared counter: final value " + std::to_string(final_value) + ", expected " +
           std::to_string(v.size());
  return "";
}

TrafficCore::TrafficCore(const TrafficParams& p, unsigned generator, Addr region_base,
                         Addr shared_counter, unsigned line_bytes, unsigned sector_bytes,
                         uint64_t seed)
    : params_(p), gen_(generator), base_(region_base), shared_(shared_counter), line_(line_bytes),
      sector_(sector_bytes), sectors_(line_bytes / sector_bytes),
      rng_(seed * 0x9E3779B97F4A7C15ull + generator + 1) {}

uint64_t TrafficCore::random_value(DataType t) {
  switch (t) {
  case DataType::F32: {
    float f = float(int64_t(below(2001)) - 1000) / 8.0f; // exact in binary: no NaN, mild rounding
    return std::bit_cast<uint32_t>(f);
  }
  case DataType::F64: {
    double d = double(int64_t(below(2000001)) - 1000000) / 16.0;
    return std::bit_cast<uint64_t>(d);
  }
  case DataType::U64:
    return rng_();
  default:
    return rng_() & 0xffffffffu;
  }
}

bool TrafficCore::next(TrafficRequest& r, const std::function<bool(Addr)>& busy) {
  const uint64_t lines = std::max<uint64_t>(1, params_.footprint / line_);
  uint64_t kind = below(100);
  r = TrafficRequest{};
  r.access.src_sm = uint16_t(gen_);
  if (kind < params_.load_pct + params_.store_pct + params_.atomic_pct &&
      kind >= params_.load_pct + params_.store_pct && below(100) < params_.shared_pct) {
    make_shared(r);
    return true;
  }
  for (int tries = 0; tries < 8; ++tries) {
    r.line = base_ + below(lines) * line_;
    if (!busy(r.line)) break;
    if (tries == 7) return false;
  }
  if (kind < params_.load_pct)
    make_load(r);
  else if (kind < params_.load_pct + params_.store_pct)
    make_store(r);
  else if (kind < params_.load_pct + params_.store_pct + params_.atomic_pct)
    make_rmw(r, AccessKind::Atomic);
  else
    make_rmw(r, AccessKind::Red);
  return true;
}

void TrafficCore::make_load(TrafficRequest& r) {
  r.access.kind = AccessKind::Load;
  r.access.sector_mask = uint32_t(1 + below((1u << sectors_) - 1));
  ref_.read(r.line, r.expect.data(), line_);
}

void TrafficCore::make_store(TrafficRequest& r) {
  r.access.kind = AccessKind::Store;
  uint32_t mask = uint32_t(1 + below((1u << sectors_) - 1));
  bool full = below(2) == 0; // half whole-sector writes, half scattered bytes
  uint64_t bits = 0, data = 0;
  for (unsigned b = 0; b < line_; ++b) {
    if (b % 64 == 0) bits = rng_();
    if (b % 8 == 0) data = rng_();
    if (!(mask >> (b / sector_) & 1)) continue;
    if (full || (bits >> (b % 64) & 1)) {
      r.byte_enable[b] = 0xff;
      r.data[b] = uint8_t(data >> (8 * (b % 8)));
      r.access.sector_mask |= 1u << (b / sector_);
    }
  }
  if (!r.access.sector_mask) { // scattered choice picked nothing: write one byte
    r.byte_enable[0] = 0xff;
    r.access.sector_mask = 1;
  }
  ref_.write_masked(r.line, r.data.data(), r.byte_enable.data(), line_);
  if (params_.inject_fault && !fault_done_) {
    // Deliberately wrong reference: the device is right, the check must fail.
    fault_done_ = true;
    uint8_t b = 0;
    ref_.read(r.line, &b, 1);
    b ^= 0x5a;
    ref_.write(r.line, &b, 1);
  }
}

void TrafficCore::make_rmw(TrafficRequest& r, AccessKind kind) {
  static constexpr AtomicOp ops[] = {AtomicOp::Add, AtomicOp::Sub,  AtomicOp::Min, AtomicOp::Max,
                                     AtomicOp::Inc, AtomicOp::Dec,  AtomicOp::And, AtomicOp::Or,
                                     AtomicOp::Xor, AtomicOp::Exch, AtomicOp::Cas};
  static constexpr DataType types[] = {DataType::U32, DataType::S32, DataType::U64, DataType::F32,
                                       DataType::F64};
  GpuAccess& a = r.access;
  do {
    a.op = ops[below(std::size(ops))];
    a.type = types[below(std::size(types))];
  } while (!atomic_supported(a.op, a.type));
  a.kind = kind;
  a.order = below(2) ? MemOrder::Relaxed : MemOrder::Commutative;
  const bool float_sum = (a.type == DataType::F32 || a.type == DataType::F64) &&
                         (a.op == AtomicOp::Add || a.op == AtomicOp::Sub);
  if (float_sum && !params_.comm_floats) a.order = MemOrder::Relaxed; // no extra draw
  a.scope = Scope::Device;
  const unsigned size = size_of(a.type), words = line_ / size;
  a.lanes.resize(1 + below(8));
  uint8_t line_bytes[kMaxLineBytes];
  ref_.read(r.line, line_bytes, line_);
  for (unsigned i = 0; i < a.lanes.size(); ++i) {
    LaneOp& l = a.lanes[i];
    l.lane = uint8_t(i);
    // A quarter of the lanes reuse an earlier lane's word: same-word
    // serialization inside one request.
    l.offset = (i > 0 && below(4) == 0) ? a.lanes[below(i)].offset : uint16_t(below(words) * size);
    l.operand = random_value(a.type);
    uint64_t cur = 0;
    std::memcpy(&cur, line_bytes + l.offset, size);
    l.compare = below(2) ? cur : random_value(a.type); // CAS succeeds about half the time
    r.expect_results[i] = apply_atomic(a.op, a.type, line_bytes + l.offset, l.operand, l.compare);
    a.sector_mask |= 1u << (l.offset / sector_);
  }
  ref_.write(r.line, line_bytes, line_);
}

void TrafficCore::make_shared(TrafficRequest& r) {
  GpuAccess& a = r.access;
  r.shared_counter = true;
  r.line = shared_ - shared_ % line_;
  a.kind = AccessKind::Atomic;
  a.op = AtomicOp::Add;
  a.type = DataType::U32;
  a.order = MemOrder::Relaxed;
  a.lanes.resize(1 + below(4));
  for (unsigned i = 0; i < a.lanes.size(); ++i)
    a.lanes[i] = LaneOp{uint16_t(shared_ % line_), uint8_t(i), 1, 0, 0};
  a.sector_mask = 1u << ((shared_ % line_) / sector_);
}

std::string TrafficCore::check(const TrafficRequest& r, const uint8_t* data,
                               const GpuAccess& done) const {
  if (r.access.kind == AccessKind::Load) {
    for (unsigned b = 0; b < line_; ++b) {
      if (!(r.access.sector_mask >> (b / sector_) & 1) || data[b] == r.expect[b]) continue;
      std::ostringstream os;
      os << std::hex << "generator " << std::dec << gen_ << std::hex << ": load of line 0x"
         << r.line << " byte 0x" << b << " returned 0x" << unsigned(data[b])
         << ", reference holds 0x" << unsigned(r.expect[b]);
      return os.str();
    }
  } else if (r.access.kind == AccessKind::Atomic && !r.shared_counter) {
    const uint64_t mask = size_of(r.access.type) == 8 ? ~0ull : 0xffffffffull;
    for (unsigned i = 0; i < r.access.lanes.size(); ++i) {
      if ((done.lanes[i].result & mask) == (r.expect_results[i] & mask)) continue;
      std::ostringstream os;
      os << std::hex << "generator " << std::dec << gen_ << ": atomic " << to_string(r.access.op)
         << "." << to_string(r.access.type) << " lane " << i << std::hex << " at 0x"
         << r.line + r.access.lanes[i].offset << " returned 0x" << done.lanes[i].result
         << ", reference 0x" << r.expect_results[i];
      return os.str();
    }
  }
  return "";
}

} // namespace tlmgpu
