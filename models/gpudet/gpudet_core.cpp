// GPUDet's issue-side logic on one SM (gpudet_core.hpp).
#include "models/gpudet/gpudet_core.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace tlmgpu {

namespace {
using K = WarpInstr::Kind;
bool is_rmw(K k) {
  return k == K::Atomic || k == K::Red;
}
// Instructions that end a quantum and go first in the next one: the
// ordering points, and accesses that carry an order of their own.
bool orders(const WarpInstr& in) {
  return in.kind == K::Fence || in.kind == K::Barrier ||
         ((in.kind == K::Load || in.kind == K::Store) && in.order != MemOrder::Relaxed);
}
} // namespace

GpuDetCore::GpuDetCore(const GpuDetSpec& spec, uint32_t warp_slots, uint32_t line_bytes,
                       uint32_t sector_bytes, StatGroup& stats)
    : spec_(spec), line_bytes_(line_bytes), coalescer_(line_bytes, sector_bytes),
      warps_(warp_slots),
      stores_(stats.counter("stores_buffered", "instructions",
                            "global store warp instructions taken into a warp's store buffer")),
      overflows_(stats.counter("store_buffer_overflows", "events",
                               "stores that did not fit their warp's store buffer (the warp's "
                               "quantum ended there)")),
      forwarded_(stats.counter("forwarded_loads", "requests",
                               "load answers overlaid with bytes from the warp's own store "
                               "buffer (store-to-load forwarding)")),
      serial_atomics_(stats.counter("serial_atomics", "instructions",
                                    "atomic and red warp instructions issued in serial mode")),
      quantum_ends_(stats.counter("quantum_ends", "events",
                                  "warps that issued gpudet.quantum instructions in a quantum")) {}

void GpuDetCore::kernel_begins(const GateLaunch& l) {
  warps_per_cta_ = std::max(1u, l.warps_per_cta);
  for (Warp& w : warps_)
    w = Warp{};
  buffers_.clear();
  running_ = 0;
  grants_.clear();
}

void GpuDetCore::set_state(Warp& w, State s) {
  if (w.state == s) return;
  const bool was = w.state == State::Running;
  w.state = s;
  if (was) --running_;
  if (s == State::Running) ++running_;
  if (was && changed) changed(); // the quantum may be over
}

void GpuDetCore::warp_started(const GateWarp& gw) {
  Warp& w = warps_.at(gw.slot);
  w = Warp{true, gw.cta, gid(gw), 0, 0, State::Exited, false, {}};
  // Started while the GPU commits or runs serial mode: it waits for the
  // next quantum like every other warp.
  set_state(w, parallel_ ? State::Running : State::Ended);
}

void GpuDetCore::warp_exited(const GateWarp& gw) {
  Warp& w = warps_.at(gw.slot);
  set_state(w, State::Exited);
  w.live = false; // its buffer stays until the commit (buffers_ is by global id)
}

GpuDetCore::Verdict GpuDetCore::check(const GateWarp& gw, const WarpInstr& in, bool commit) {
  Warp& w = warps_.at(gw.slot);
  if (!parallel_) {
    // Serial mode: only a granted warp's atomic, once, after every warp
    // granted before it on this SM (their numbers are lower: lt's
    // sequencers wait for them on the caller's thread).
    const auto g = grants_.find(gw.slot);
    if (g == grants_.end() || g->second.issued || w.state != State::AtAtomic || !is_rmw(in.kind))
      return Verdict::Wait;
    for (auto& [slot, o] : grants_)
      if (!o.issued && o.order < g->second.order) return Verdict::Wait;
    if (commit) {
      g->second.issued = true;
      ++serial_atomics_;
      set_state(w, State::Ended); // an atomic ends the warp's parallel mode (notes §4)
    }
    return Verdict::Pass;
  }
  if (w.state != State::Running) return Verdict::Wait;
  if (is_rmw(in.kind)) {
    w.arrival = arrival ? arrival() : 0;
    w.lines.clear();
    for (const LineRequest& r : coalescer_.coalesce(in))
      w.lines.push_back(r.line);
    set_state(w, State::AtAtomic);
    return Verdict::Wait;
  }
  if (orders(in) && !w.pass_once) {
    // A barrier goes on only when open_quantum() finds its CTA gathered.
    w.pass_once = in.kind != K::Barrier;
    set_state(w, in.kind == K::Barrier ? State::AtBarrier : State::Ended);
    return Verdict::Wait;
  }
  const bool store = in.kind == K::Store;
  const std::span<const LineRequest> lines =
      store ? coalescer_.coalesce(in) : std::span<const LineRequest>{};
  if (store && overflows(w, lines)) {
    ++overflows_;
    set_state(w, State::Ended);
    return Verdict::Wait;
  }
  if (commit) {
    w.pass_once = false;
    w.count += in.kind == K::Compute ? std::max(1u, in.count) : 1;
    if (store) take_store(w, lines);
    if (w.count >= spec_.quantum) {
      ++quantum_ends_;
      set_state(w, State::Ended);
    }
  }
  return store ? Verdict::Taken : Verdict::Pass;
}

bool GpuDetCore::overflows(const Warp& w, std::span<const LineRequest> lines) const {
  const auto it = buffers_.find(w.gid);
  const size_t used = it == buffers_.end() ? 0 : it->second.size();
  size_t fresh = 0;
  for (const LineRequest& r : lines)
    fresh += it == buffers_.end() || !it->second.count(r.line);
  return used + fresh > spec_.store_buffer;
}

void GpuDetCore::take_store(Warp& w, std::span<const LineRequest> lines) {
  GpuDetBuffer& buf = buffers_[w.gid];
  for (const LineRequest& r : lines) {
    GpuDetLine& l = buf[r.line];
    if (l.data.empty()) l.data.assign(line_bytes_, 0), l.written.assign(line_bytes_, 0);
    for (uint32_t i = 0; i < line_bytes_; ++i)
      if (r.byte_enable[i]) l.data[i] = r.data[i], l.written[i] = 1;
  }
  ++stores_;
}

bool GpuDetCore::idle() const {
  return buffers_.empty() &&
         std::none_of(warps_.begin(), warps_.end(), [](const Warp& w) { return w.live; });
}

std::vector<GpuDetHeld> GpuDetCore::held_atomics() const {
  std::vector<GpuDetHeld> out;
  for (uint32_t s = 0; s < warps_.size(); ++s)
    if (warps_[s].live && warps_[s].state == State::AtAtomic)
      out.push_back(GpuDetHeld{warps_[s].gid, warps_[s].arrival, s});
  return out;
}

void GpuDetCore::grant(uint32_t slot) {
  const std::vector<Addr>& lines = warps_.at(slot).lines;
  grants_[slot] = Grant{++grants_made_, false, uint32_t(lines.size())};
  if (serial_grant) serial_grant(slot, lines);
  if (changed) changed();
}

bool GpuDetCore::serial_issued(uint32_t slot) const {
  const auto g = grants_.find(slot);
  return g != grants_.end() && g->second.issued;
}

uint32_t GpuDetCore::serial_left(uint32_t slot) const {
  const auto g = grants_.find(slot);
  return g == grants_.end() ? 0 : g->second.left;
}

bool GpuDetCore::serial_settled() const {
  return std::all_of(grants_.begin(), grants_.end(),
                     [](auto& g) { return g.second.issued && g.second.left == 0; });
}

bool GpuDetCore::serial_answer(uint32_t slot) {
  const auto g = grants_.find(slot);
  if (g == grants_.end() || !g->second.issued || g->second.left == 0) return false;
  return --g->second.left == 0;
}

void GpuDetCore::open_quantum() {
  // Live warps and warps at the barrier, per CTA resident here.
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> ctas;
  for (const Warp& w : warps_)
    if (w.live) {
      auto& c = ctas[w.cta];
      ++c.first;
      c.second += w.state == State::AtBarrier;
    }
  for (Warp& w : warps_) {
    if (!w.live) continue;
    w.count = 0;
    if (w.state == State::Ended) set_state(w, State::Running);
    if (w.state == State::AtBarrier && ctas[w.cta].first == ctas[w.cta].second) {
      w.pass_once = true;
      set_state(w, State::Running);
    }
  }
  grants_.clear();
  parallel_ = true;
  if (changed) changed();
}

uint32_t GpuDetCore::forward(uint32_t slot, Addr line, uint8_t* data) const {
  if (spec_.inject_fault == "no_forwarding" || slot >= warps_.size() || !warps_[slot].live)
    return 0;
  const auto b = buffers_.find(warps_[slot].gid);
  if (b == buffers_.end()) return 0;
  const auto l = b->second.find(line);
  if (l == b->second.end()) return 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < line_bytes_; ++i)
    if (l->second.written[i]) data[i] = l->second.data[i], ++n;
  if (n) ++forwarded_;
  return n;
}

std::string GpuDetCore::state() const {
  uint32_t n[5] = {};
  for (const Warp& w : warps_)
    if (w.live) ++n[size_t(w.state)];
  size_t lines = 0;
  for (auto& [g, b] : buffers_)
    lines += b.size();
  std::ostringstream os;
  os << "gpudet " << (parallel_ ? "parallel" : "held") << ": " << n[0] << " running, " << n[1]
     << " ended, " << n[2] << " at an atomic, " << n[3] << " at a barrier; " << lines
     << " buffered lines";
  for (auto& [slot, g] : grants_)
    if (!g.issued || g.left)
      os << "; serial grant slot " << slot << (g.issued ? ", issued, " : ", not issued, ") << g.left
         << " answers left";
  return os.str();
}

std::vector<std::map<Addr, GpuDetLine>> commit_writes(const std::vector<const GpuDetCore*>& cores,
                                                      uint32_t line_bytes) {
  std::vector<std::tuple<uint64_t, size_t, const GpuDetBuffer*>> bufs;
  for (size_t c = 0; c < cores.size(); ++c)
    for (auto& [gid, b] : cores[c]->buffers())
      bufs.emplace_back(gid, c, &b);
  std::sort(bufs.begin(), bufs.end(),
            [](auto& a, auto& b) { return std::get<0>(a) < std::get<0>(b); });
  constexpr uint32_t kNone = ~0u;
  struct Merged {
    std::vector<uint8_t> data;
    std::vector<uint32_t> owner;
  };
  std::map<Addr, Merged> merged;
  for (auto& [gid, c, b] : bufs) // ascending global warp id: a later writer wins
    for (auto& [line, l] : *b) {
      Merged& m = merged[line];
      if (m.data.empty()) m.data.assign(line_bytes, 0), m.owner.assign(line_bytes, kNone);
      for (uint32_t i = 0; i < line_bytes; ++i)
        if (l.written[i]) m.data[i] = l.data[i], m.owner[i] = uint32_t(c);
    }
  std::vector<std::map<Addr, GpuDetLine>> out(cores.size());
  for (auto& [line, m] : merged)
    for (uint32_t i = 0; i < line_bytes; ++i) {
      if (m.owner[i] == kNone) continue;
      GpuDetLine& l = out[m.owner[i]][line];
      if (l.data.empty()) l.data.assign(line_bytes, 0), l.written.assign(line_bytes, 0);
      l.data[i] = m.data[i];
      l.written[i] = 1;
    }
  return out;
}

} // namespace tlmgpu
