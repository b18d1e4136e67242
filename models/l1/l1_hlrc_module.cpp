// hLRC in the L1 module (models/hlrc/README.md): device atomics obtain the
// ownership of their line from its home L2 slice and are then performed here.
// Same class as l1_module.cpp; the owned-line state lives in L1Core.
//
//   atomic/red ─► owned here? ── yes ─► L1Core::local_atomic ─► respond (l1.latency)
//                    │ no
//                    ▼
//   drop our copy (dirty bytes to L2 first) ─► MSHR entry (later requests to
//   the line wait behind it) ─► ownership request = the atomic itself ─► L2
//   grant (lanes performed at L2, whole line back) ─► install Owned, respond,
//   replay the waiters (they hit the owned line)
//
//   Recall (hlrc_in, from the home) ─► owned: give the line up (bytes back)
//     grant on its way ─► AT request path: deferred; on the grant's arrival the
//                         line is installed, the waiters are served, then it
//                         is given up (an Answer on hlrc_out)
//                     └► blocking path: revoked; the grant completes its atomic
//                         (done at L2) and installs nothing
#include "models/l1/l1_module.hpp"
#include "tlmgpu/invariant.hpp"
#include "tlmgpu/timing.hpp"

#include "models/hlrc/hlrc_fabric_module.hpp"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

using namespace sc_core;

namespace tlmgpu {

struct L1Module::Hlrc {
  explicit Hlrc(StatGroup& g)
      : in("hlrc_in"), out("hlrc_out"),
        ownership_requests(g.counter("hlrc_ownership_requests", "requests",
                                     "hLRC atomics sent to L2 to obtain their line's ownership")),
        recalls_received(g.counter("hlrc_recalls_received", "recalls",
                                   "hLRC recalls of a line by its home L2 slice")),
        revoked_grants(g.counter("hlrc_revoked_grants", "grants",
                                 "grants recalled before they arrived (atomic done at L2, "
                                 "line not installed)")),
        eviction_releases(
            g.counter("hlrc_eviction_releases", "lines", "owned lines given up for capacity")),
        flush_releases(g.counter("hlrc_flush_releases", "lines",
                                 "owned lines given up at kernel end or a fence")),
        handover_releases(g.counter("hlrc_handover_releases", "lines",
                                    "LT: contended owned lines given up after their grant "
                                    "served l1.mshr_max_merge requests (AT: a deferred recall)")),
        late_atomics(g.counter("hlrc_late_atomics", "requests",
                               "LT: atomics this L1 performed while it still owned the line in "
                               "time, after its recall in call order (applied at the new owner)")) {
  }
  // The recall channel (HlrcChannel): recalls in; answers and releases out.
  tlm_utils::simple_target_socket<L1Module> in;
  tlm_utils::simple_initiator_socket<L1Module> out;
  std::set<Addr> pending;  // AT: ownership requests whose grant is not back yet
  std::set<Addr> revoked;  // AT: of those, cancelled by the home meanwhile
  std::set<Addr> deferred; // AT: of those, recalled: give the line up on arrival
  // LT: ownership in simulated time (SM cycles). An episode runs from the
  // ownership request's arrival here over its grant's arrival to the
  // recall's arrival. Recalled lines' episodes are kept until the kernel
  // passes their end: an atomic of ours that AT would merge into the
  // episode's MSHR entry (lt_hlrc_late) was served by its grant.
  struct Episode {
    Cycle asked = 0, granted = 0, recalled = ~Cycle{0};
    bool contended = false; // the request waited, or the line was recalled from us before
    uint32_t merged = 1;    // requests served by the grant (before its arrival), itself first
  };
  std::unordered_map<Addr, Episode> held, lost;
  Counter &ownership_requests, &recalls_received, &revoked_grants, &eviction_releases,
      &flush_releases, &handover_releases, &late_atomics;
};

void L1Module::hlrc_init() {
  if (spec_.bytes == 0) throw ConfigError("l1.atomic_mode = hlrc needs an L1 (l1.bytes > 0)");
  hlrc_ = {new Hlrc(stats_), [](Hlrc* h) { delete h; }};
  hlrc_->in.register_b_transport(this, &L1Module::hlrc_message_in);
  HlrcFabric::of(ctx_).attach_owner(sm_, hlrc_->in, hlrc_->out, clk_, spec_.latency);
}

// A Recall from the line's home, answered in the message.
void L1Module::hlrc_message_in(tlm::tlm_generic_payload& p, sc_time&) {
  HlrcMessage& m = hlrc_message(p);
  if (m.kind == HlrcMessage::Kind::Apply) { // LT: another SM's atomic, ours now
    m.applied = core_.local_atomic(*m.access, m.line);
    return;
  }
  TLMGPU_CHECK(m.kind == HlrcMessage::Kind::Recall);
  m.answer = hlrc_recall(m.line, m.may_defer, m.arrive, m.data);
}

// LT: SMs run decoupled, so a recall can reach us in call order before
// atomics of ours that are earlier in simulated time than its arrival. Those
// were ours (the hardware performs them before the recall lands): they are
// timed as local atomics (not before the grant of that episode arrived) and
// performed where the line is now (an Apply to its current owner), so the
// line is not handed back and forth in call order. Returns the cycle the
// atomic may start, or nothing if it was not ours at `at` (or the line is
// free now: then it asks for ownership as usual).
std::optional<Cycle> L1Module::lt_hlrc_late(Payload& t, Cycle at) {
  const Addr line = t.get_address();
  auto it = hlrc_->lost.find(line);
  // Only requests that AT merges into the ownership request's MSHR entry
  // (before the grant arrives, up to l1.mshr_max_merge): a recall that came
  // before the grant is answered right after them (a deferred recall).
  if (it == hlrc_->lost.end() || at < it->second.asked || at >= it->second.granted ||
      it->second.merged >= spec_.mshr_max_merge)
    return {};
  HlrcEnvelope e;
  e.msg.kind = HlrcMessage::Kind::Apply;
  e.msg.line = line;
  e.msg.sm = sm_;
  e.msg.access = &access_of(t);
  e.send(hlrc_->out);
  if (!e.msg.applied) return {};
  access_of(t).serviced_by = GpuAccess::Level::L1;
  ++hlrc_->late_atomics;
  ++it->second.merged;
  WaitTally::add(1, false); // a contended line (see lt_hlrc_local)
  return std::max(at, it->second.granted);
}

// LT: an atomic performed on an owned line. If other SMs want the line, it
// counts as contention (docs/timing.md, "Contention syncs"): the SM then
// yields within sim.lt_busy_quantum, so their requests reach the home at
// their times instead of after a whole quantum of our local atomics.
void L1Module::lt_hlrc_local(Addr line, Cycle at) {
  auto h = hlrc_->held.find(line);
  if (h == hlrc_->held.end()) return;
  if (at < h->second.granted) ++h->second.merged; // an MSHR waiter in AT
  // Not a queue's wait: LT keeps ownership episodes in simulated time, so the
  // request budget (sim.lt_busy_requests), which shares a queue's burst, is
  // not spent on it (spent, hLRC histogram n = 65536 on titanv took 57,237
  // cycles in lt against 59,453-59,525 without, 64,348 in at).
  if (h->second.contended) WaitTally::add(1, false);
}

// LT: a request to a line whose grant is on its way when that grant already
// serves l1.mshr_max_merge requests. AT's L1 takes requests in order, so it
// cannot merge: it stalls the L1's head, and every request behind it, until
// the grant arrives. Returns that cycle (0: no stall); the caller holds the
// L1's input until then. If the line is contended, by then another SM's
// recall is waiting, so in AT the line goes after the merged requests and
// this one asks again: here the line goes back to its home at the grant's
// arrival and the request asks for it anew. The same holds for a request
// that arrived before its line's contended grant but reaches the L1's head
// (`start`) only after it, held up behind another line's stall: in AT it
// finds the line gone with the deferred recall. Without this LT merged such
// requests into the grant and handed lines over 7 % less often than AT
// (histogram, titanv-paper, n = 1 Mi: 41,626 grants against 44,682, lt 0.93
// of at; now 48,013 grants and 1.004). The episode stays keyed on the
// arrival: the requests queued behind this one join its new entry in AT.
Cycle L1Module::lt_hlrc_budget(Addr line, Cycle at, Cycle start) {
  auto h = hlrc_->held.find(line);
  const auto hand_over = [&] { // the line back to its home at the grant's arrival
    const Cycle granted = h->second.granted;
    if (std::optional<Writeback> wb = core_.give_up(line))
      hlrc_release(*wb, granted, HlrcRelease::Handover);
  };
  if (h != hlrc_->held.end() && h->second.contended && at < h->second.granted &&
      start >= h->second.granted)
    return hand_over(), 0;
  const auto full = [&](const Hlrc::Episode& e) {
    return at < e.granted && e.merged >= spec_.mshr_max_merge;
  };
  const bool held_full = h != hlrc_->held.end() && full(h->second);
  Cycle stall = 0;
  if (held_full && at >= h->second.asked) {
    stall = h->second.granted;
  } else if (auto l = hlrc_->lost.find(line);
             l != hlrc_->lost.end() && full(l->second) && at >= l->second.asked) {
    stall = l->second.granted;
  }
  if (held_full && h->second.contended) hand_over();
  return stall;
}

// The ownership request's two carriers. serve() found the line not owned
// here and dropped our copy (its write-back is already on its way); what
// differs is only how the request travels and when its grant is installed.

// LT / functional: a nested b_transport; the grant is installed on return
// (nothing else runs in between, so no revocation).
Cycle L1Module::lt_hlrc_own(Payload& t, Cycle start, Cycle ready) {
  const Addr line = t.get_address();
  const bool lt = ctx_.mode == TimingMode::LT;
  if (lt)
    if (std::optional<Cycle> late = lt_hlrc_late(t, start)) return std::max(ready, *late);
  ++forwarded_;
  ++hlrc_->ownership_requests;
  const bool timed = ctx_.timed();
  sc_time d = timed ? clk_.until(ready) : SC_ZERO_TIME;
  const sc_time base = sc_time_stamp();
  const uint64_t waits = lt ? WaitTally::take() : 0; // ours before, kept
  down.b_transport(t, d);
  if (timed) ready = clk_.at_or_after(base + d);
  if (lt) {
    const uint64_t waited = WaitTally::take();
    WaitTally::add(waits + waited, false); // the shared part was never taken
    // The episode's requests are those from this one's arrival on (in AT
    // the later ones stall behind it and merge into its MSHR entry).
    hlrc_->held[line] = {start, ready, ~Cycle{0}, waited > 0 || hlrc_->lost.erase(line) != 0};
  }
  if (auto victim = core_.install_owned(line, t.get_data_ptr())) lt_write_back(*victim, ready);
  // Later requests to the line wait for the grant's arrival (as for a fill).
  // An entry still there (an earlier grant's) now waits for this one too.
  if (lt && mshr_.add(line, nullptr) != MshrOutcome::NoEntry)
    mshr_.set_ready(line, std::max(ready, mshr_.ready_of(line).value_or(0)));
  return ready;
}

// AT: an MSHR entry (later requests to the line wait behind it) and a packet;
// the grant arrives in hlrc_on_grant. attempt() found no MSHR entry for the
// line and sent our copy's write-back before this entry exists, so it is not
// noted as overlapping a fill (a grant is not a fill). A full MSHR table
// stalls the request with the copy already dropped, as a miss's eviction.
bool L1Module::hlrc_own(Payload& t) {
  const Addr line = t.get_address();
  if (mshr_.probe(line) == MshrOutcome::NoEntry) return ++stall_mshr_, false;
  mshr_.add(line, &t);
  hlrc_->pending.insert(line);
  ++forwarded_;
  ++hlrc_->ownership_requests;
  send_down(t);
  return true;
}

void L1Module::hlrc_on_grant(Payload& t) {
  const Addr line = t.get_address();
  hlrc_->pending.erase(line);
  if (hlrc_->revoked.erase(line) != 0) {
    // The home performed this atomic and took the line back before the grant
    // arrived: its data there is the newest, so nothing is installed.
    ++hlrc_->revoked_grants;
  } else if (auto victim = core_.install_owned(line, static_cast<GpuPayload&>(t).data())) {
    write_back(*victim);
  }
  finish(t, 0);
  // Waiters in arrival order: they hit the owned line, or (revoked) one asks
  // again and the rest queue behind it. A deferred recall is answered after
  // them: the transfer serves every request that waited for it.
  std::vector<Payload*> waiters = mshr_.release(line);
  for (size_t i = 0; i < waiters.size(); ++i) {
    if (waiters[i] == &t) continue;
    if (mshr_.pending(line)) {
      for (; i < waiters.size(); ++i)
        if (waiters[i] != &t) mshr_.add(line, waiters[i]);
      break;
    }
    if (!attempt(*waiters[i], true))
      throw std::logic_error(std::string(name()) + ": L1 replay after a grant refused");
  }
  if (hlrc_->deferred.erase(line) != 0) {
    std::optional<Writeback> wb = core_.give_up(line);
    TLMGPU_CHECK(wb && "a deferred recall's line must be owned on the grant's arrival");
    HlrcEnvelope e;
    e.msg.kind = HlrcMessage::Kind::Answer;
    e.msg.line = line;
    e.msg.sm = sm_;
    e.msg.sent = clk_.now();
    e.msg.data = std::move(wb);
    e.send(hlrc_->out);
  }
  wake(); // the MSHR entry freed
}

HlrcAnswer L1Module::hlrc_recall(Addr line, bool may_defer, Cycle at,
                                 std::optional<Writeback>& out) {
  TLMGPU_CHECK(hlrc_);
  ++hlrc_->recalls_received;
  if ((out = core_.give_up(line))) {
    lt_hlrc_recalled(line, at);
    wake(); // the array changed under a stalled head (a retry decides)
    return HlrcAnswer::Given;
  }
  if (hlrc_->pending.count(line) != 0) {
    // One recall at a time per line: the home parks later requests.
    TLMGPU_CHECK(hlrc_->deferred.count(line) == 0 && hlrc_->revoked.count(line) == 0);
    (may_defer ? hlrc_->deferred : hlrc_->revoked).insert(line);
    return may_defer ? HlrcAnswer::Deferred : HlrcAnswer::Revoked;
  }
  std::ostringstream os;
  os << name() << ": hLRC recall of line 0x" << std::hex << line
     << " that this L1 neither owns nor awaits";
  throw SimError(os.str());
}

// LT: a recalled line's episode ends when the recall reached us. Episodes
// the kernel has passed are of no use any more (no request of ours comes
// before the kernel's time).
void L1Module::lt_hlrc_recalled(Addr line, Cycle at) {
  auto h = hlrc_->held.find(line);
  if (h == hlrc_->held.end()) return; // not LT
  if (hlrc_->lost.size() >= 4096) {
    const Cycle now = clk_.now();
    for (auto it = hlrc_->lost.begin(); it != hlrc_->lost.end();)
      it = it->second.recalled <= now ? hlrc_->lost.erase(it) : std::next(it);
  }
  h->second.recalled = at;
  hlrc_->lost[line] = h->second;
  hlrc_->held.erase(h);
}

Cycle L1Module::hlrc_release(const Writeback& wb, Cycle at, HlrcRelease why) {
  TLMGPU_CHECK(hlrc_);
  // Given up, not recalled: ours in time until now only (no late atomics).
  hlrc_->held.erase(wb.line);
  if (why == HlrcRelease::Flush) hlrc_->lost.clear();
  ++(why == HlrcRelease::Eviction   ? hlrc_->eviction_releases
     : why == HlrcRelease::Handover ? hlrc_->handover_releases
                                    : hlrc_->flush_releases);
  HlrcEnvelope e;
  e.msg.kind = HlrcMessage::Kind::Release;
  e.msg.line = wb.line;
  e.msg.sm = sm_;
  e.msg.sent = at;
  e.msg.why = why;
  e.msg.data = wb;
  e.send(hlrc_->out);
  return e.msg.back;
}

} // namespace tlmgpu
