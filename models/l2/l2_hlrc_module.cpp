// hLRC at the L2 slice (models/hlrc/README.md): the slice is the home of its
// lines' ownership registry. Same class as l2_module.cpp.
//
//   request for line X ──► parked behind a deferred recall of X? ─► wait
//                          hlrc_resolve: wait for ready(X); owner o?
//                            │ yes: Recall to o ─► o's L1 drops X, its
//                            │      dirty bytes are absorbed here; X unowned
//                            │      (AT, o's grant still travelling: deferred,
//                            │      X's requests park until hlrc_recall_done)
//                            ▼
//                          serve: atomic/red ─► grant (whole line, lanes
//                                 performed here) ─► registry: X owned by src
//                                 other ─► L2Core::access as without hLRC
//   Release from o ─► hlrc_release: absorb o's bytes, X unowned
// (Recall, Answer and Release are messages on the recall channel, HlrcChannel.)
#include "models/hlrc/hlrc_fabric_module.hpp"
#include "models/l2/l2_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <sstream>

namespace tlmgpu {

void L2Module::hlrc_init() {
  hlrc_ = true;
  hlrc_out_ = std::make_unique<tlm_utils::simple_initiator_socket<L2Module>>("hlrc_out");
  hlrc_in_ = std::make_unique<tlm_utils::simple_target_socket<L2Module>>("hlrc_in");
  hlrc_in_->register_b_transport(this, &L2Module::hlrc_message_in);
  HlrcFabric::of(ctx_).attach_home(slice_, *hlrc_in_, *hlrc_out_, clk_);
  hlrc_grants_ = &stats_.counter("hlrc_grants", "grants",
                                 "hLRC ownership grants (atomics performed here, line sent)");
  hlrc_recalls_ = &stats_.counter("hlrc_recalls", "recalls",
                                  "hLRC recalls of an owned line for another SM's request");
  hlrc_releases_ =
      &stats_.counter("hlrc_releases", "releases",
                      "hLRC lines given up by their owner (eviction, kernel end, fence)");
  hlrc_parked_ = &stats_.counter("hlrc_parked", "requests",
                                 "AT: requests that waited for a recall answered on a grant's "
                                 "arrival (queued behind a pending transfer)");
  hlrc_wait_ = &stats_.average("hlrc_ownership_wait_cycles", "cycles",
                               "L2 cycles a granted request waited for the line's previous owner "
                               "(pending transfer + recall round trip); 0 if it was free");
}

void L2Module::hlrc_absorb(const Writeback& wb, Cycle at) {
  if (auto victim = core_.absorb(wb)) {
    // AT while simulating: the queued path, behind older write-backs. A host
    // flush after the simulation (checkers) has no events left to run the
    // queue, so it writes through at once, as the blocking path does.
    if (ctx_.at() && sc_core::sc_get_status() == sc_core::SC_RUNNING)
      write_back(*victim);
    else
      lt_write_back(*victim, at);
  }
}

std::optional<Cycle> L2Module::hlrc_resolve(const GpuAccess& a, Addr line, Cycle now,
                                            bool may_defer) {
  const Cycle start = std::max(now, registry_.ready(line)); // behind a pending transfer
  const std::optional<uint16_t> owner = registry_.owner(line);
  if (!owner) return start;
  if (*owner == a.src_sm) {
    // The owner serves its line in its L1 and its earlier requests were
    // ordered before the grant: reaching here means a protocol bug.
    std::ostringstream os;
    os << name() << ": hLRC: SM " << a.src_sm << " sent a " << to_string(a.kind) << " for line 0x"
       << std::hex << line << " it owns";
    throw SimError(os.str());
  }
  ++*hlrc_recalls_;
  HlrcEnvelope e;
  e.msg.kind = HlrcMessage::Kind::Recall;
  e.msg.line = line;
  e.msg.sm = *owner;
  e.msg.slice = slice_;
  e.msg.sent = start;
  e.msg.may_defer = may_defer;
  e.send(*hlrc_out_);
  if (e.msg.answer == HlrcAnswer::Deferred) return std::nullopt; // an Answer follows
  if (e.msg.data) hlrc_absorb(*e.msg.data, e.msg.back);
  registry_.recall(line, e.msg.back);
  return e.msg.back;
}

bool L2Module::hlrc_gate(Payload& t, Addr line, Cycle now, Cycle arrival, Cycle& hold) {
  hold = 0;
  if (!hlrc_) return true;
  auto it = parked_.find(line);
  if (it == parked_.end()) {
    const std::optional<Cycle> ready = hlrc_resolve(access_of(t), line, now, true);
    if (ready) {
      hold = *ready - now;
      return true;
    }
    it = parked_.emplace(line, std::deque<Parked>{}).first;
  }
  it->second.push_back({&t, arrival});
  ++*hlrc_parked_;
  return false;
}

Cycle L2Module::hlrc_blocking_resolve(const GpuAccess& a, Addr line, Cycle now) {
  if (!hlrc_) return 0;
  if (parked_.count(line) != 0) {
    // AT only: an L1 flush's write-back while the line's recall waits for a
    // grant in flight. Applied now, without a recall: the owner writes back
    // only the bytes it changes after its grant, which come later anyway.
    if (a.kind == AccessKind::Store || a.kind == AccessKind::Eviction) return 0;
    throw SimError(std::string(name()) + ": hLRC: blocking " + std::string(to_string(a.kind)) +
                   " to a line with a deferred recall (unsupported)");
  }
  return *hlrc_resolve(a, line, now, false) - now;
}

void L2Module::hlrc_message_in(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
  HlrcMessage& m = hlrc_message(p);
  if (m.kind == HlrcMessage::Kind::Release)
    hlrc_release(m.sm, *m.data, m.arrive);
  else if (m.kind == HlrcMessage::Kind::Answer)
    hlrc_recall_done(m.line, std::move(m.data), m.arrive);
  else if (m.kind == HlrcMessage::Kind::Apply)
    hlrc_apply(p, m);
  else
    TLMGPU_CHECK(false && "a home receives releases and answers only");
}

// LT: an atomic of an SM that owned the line at its time, whose recall came
// earlier in call order: performed where the line is now, in its owner's L1.
// Not applied if the line is free (the L1 asks for ownership then).
void L2Module::hlrc_apply(tlm::tlm_generic_payload& p, HlrcMessage& m) {
  const std::optional<uint16_t> owner = registry_.owner(m.line);
  if (!owner || *owner == m.sm) return; // the requester cannot own it: it missed
  m.sm = *owner;
  sc_core::sc_time none = sc_core::SC_ZERO_TIME;
  (*hlrc_out_)->b_transport(p, none);
}

void L2Module::hlrc_recall_done(Addr line, std::optional<Writeback> wb, Cycle back) {
  if (wb) hlrc_absorb(*wb, back);
  registry_.recall(line, back);
  auto it = parked_.find(line);
  TLMGPU_CHECK(it != parked_.end());
  for (const Parked& p : it->second)
    resume_q_.push_back(p);
  parked_.erase(it);
  kick();
}

void L2Module::hlrc_release(uint16_t sm, const Writeback& wb, Cycle back) {
  try {
    registry_.release(wb.line, sm, back);
  } catch (const std::logic_error& e) {
    throw SimError(std::string(name()) + ": " + e.what());
  }
  hlrc_absorb(wb, back);
  ++*hlrc_releases_;
  // Entries of free lines whose transfer is over carry nothing: drop them now
  // and then (LT requests never arrive before the kernel's time).
  if (++hlrc_prune_tick_ % 4096 == 0) registry_.prune(ctx_.timed() ? clk_.now() : 0);
}

} // namespace tlmgpu
