// An IRU partition's Data Replier (seed-003 §3.4 step 6, thesis §5.2.2):
// warp requests arrive on `req` (the partition's device window), wait in the
// requests buffer, and are answered when IruCore's rules allow: at once if
// a set is full, else when data comes, at the timeout, or at the drain.
//
// Window lines: 0 takes a reply (32 lanes of indices, 0xffffffff for an
// inactive lane); 1 and 2 return the same reply's secondary words and
// positions to the warp that took it (one request per array here, one
// request and up to three reply packets in the thesis: the model sends a
// header-sized request more per extra array).
#include "models/iru/iru_module.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

using namespace sc_core;

namespace tlmgpu {
namespace {

constexpr uint32_t kLanes = 32;

uint32_t warp_key(const GpuAccess& a) {
  return uint32_t(a.src_sm) << 16 | a.src_warp;
}

} // namespace

uint32_t IruModule::decode(Payload& t) const {
  const unsigned lb = ctx_.net.line_bytes;
  const Addr off = t.get_address() - window_;
  const GpuAccess& a = access_of(t);
  if (a.kind != AccessKind::Load || off % lb || off / lb > 2) {
    std::ostringstream os;
    os << name() << ": only loads of window lines 0-2 are load_iru requests (address 0x" << std::hex
       << t.get_address() << ")";
    throw SimError(os.str());
  }
  if (std::popcount(a.sector_mask) * ctx_.net.sector_bytes < 4 * kLanes)
    throw SimError(std::string(name()) + ": a load_iru must be loaded by all 32 lanes (4 bytes "
                                         "each): a reply hands out one element per lane");
  return uint32_t(off / lb);
}

Cycle IruModule::ring_cycles(const IruCore::Reply& r) const {
  // Sets taken from other partitions come over the ring first.
  return r.max_hops ? r.max_hops * spec_.ring_hop_cycles + link_cycles(r.stolen) : 0;
}

void IruModule::answer(Payload& t, const IruCore::Reply& r, Cycle waited) {
  uint8_t* d = t.get_data_ptr();
  Last& l = last_[warp_key(access_of(t))];
  for (uint32_t i = 0; i < kLanes; ++i) {
    const bool on = i < r.elements.size();
    const uint32_t idx = on ? r.elements[i].index : kIruInactive;
    std::memcpy(d + 4 * i, &idx, 4);
    l.secondary[i] = on ? r.elements[i].secondary : 0;
    l.position[i] = on ? r.elements[i].position : kIruInactive;
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  wait_.sample(double(waited));
  replied_ += r.elements.size();
  stolen_ += r.stolen;
  if (!r.elements.empty()) blocks_.sample(r.blocks);
  ++(r.kind == IruCore::Kind::Full      ? replies_full_
     : r.kind == IruCore::Kind::Timeout ? replies_timeout_
     : r.kind == IruCore::Kind::Drain   ? replies_drain_
                                        : replies_inactive_);
}

void IruModule::companion(Payload& t, uint32_t line) {
  auto it = last_.find(warp_key(access_of(t)));
  if (it == last_.end())
    throw SimError(std::string(name()) + ": a load_iru of window line " + std::to_string(line) +
                   " before its warp took a reply (line 0)");
  std::memcpy(t.get_data_ptr(), line == 1 ? it->second.secondary : it->second.position, 4 * kLanes);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  ++companions_;
}

// lt, functional: the reply is played forward from the request's cycle
// (IruCore::reply_by); the warp waits until then.
void IruModule::req_b_transport(Payload& t, sc_time& d) {
  const uint32_t line = decode(t);
  if (line) {
    companion(t, line);
    if (ctx_.timed()) d += clk_.cycles(spec_.stage_cycles);
    return;
  }
  ++requests_;
  const Cycle at = ctx_.timed() ? clk_.at_or_after(sc_time_stamp() + d) : 0;
  // A gather configuration has one initiator, the SCU, whose pulls come in
  // call order at cycles that go back and forth: none is answered before the
  // hashes' state it is answered from (an earlier call played them forward
  // to a later cycle).
  const Cycle from = times_out() ? at : std::max(at, control_.core().advanced());
  auto r = control_.core().reply_by(index_, kLanes, from,
                                    times_out() ? spec_.timeout_cycles : kIruNever / 4);
  if (!r)
    throw SimError(std::string(name()) + ": a load_iru that nothing can answer (" +
                   std::to_string(control_.core().remaining()) +
                   " elements remain but none is on its way; was configure_iru called?)");
  answer(t, r->r, r->at - at);
  if (ctx_.timed()) d = clk_.until(r->at + spec_.stage_cycles + ring_cycles(r->r));
  control_.sync_all();
}

// at: requests wait in the requests buffer (the port's queue holds what does
// not fit, withholding END_REQ).
void IruModule::pull_requests() {
  bool took = false;
  while (req.has_request() && waiting_.size() < spec_.requests_buffer) {
    Payload& t = req.front();
    req.pop();
    if (const uint32_t line = decode(t)) {
      companion(t, line);
      req.respond(t, clk_.cycles(spec_.stage_cycles));
      continue;
    }
    ++requests_;
    waiting_.push_back({&t, clk_.now()});
    took = true;
  }
  if (took) control_.kick();
}

void IruModule::serve(Cycle now) {
  IruCore& core = control_.core();
  while (!waiting_.empty()) {
    const Waiting w = waiting_.front();
    auto r = core.reply(index_, kLanes, times_out() && now >= w.since + spec_.timeout_cycles, now,
                        control_.idle_mask());
    if (!r) break; // the oldest first: a younger one waits behind it
    answer(*w.t, *r, now - w.since);
    req.respond(*w.t, clk_.cycles(spec_.stage_cycles + ring_cycles(*r)));
    waiting_.pop_front();
  }
  pull_requests();
}

Cycle IruModule::next_timeout(Cycle now) const {
  if (waiting_.empty() || !times_out()) return kIruNever;
  const Cycle due = waiting_.front().since + spec_.timeout_cycles;
  return due > now ? due : kIruNever; // timed out: it waits for data, not for time
}

} // namespace tlmgpu
