// The ISCU (seed-003 §4, thesis Ch. 6): with scu.filter_unit = iru, a
// filtering command's data fetches are redirected to the IRU partition whose
// memory holds each line, the IRU's reordering hash drops duplicates
// (min_u32 merge without a secondary word: an equal index is dropped), and
// the SCU takes the survivors from the partitions' windows and writes them
// through its Data Store. No hash table in memory, no hash L2 traffic, and
// the fetched data never crosses the network: only the survivors do, 32 to
// a reply line (README.md, "ISCU").
#include "models/iru/iru_module.hpp"
#include "models/scu/scu_module.hpp"

#include <algorithm>
#include <cstring>
#include <queue>

namespace tlmgpu {

void ScuModule::take_reply(const uint8_t* line, const uint8_t* sec) {
  ++iru_replies_;
  bool any = false;
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t x;
    std::memcpy(&x, line + 4 * i, 4);
    if (x == kIruInactive) continue;
    any = true;
    iru_out_.insert(iru_out_.end(), line + 4 * i, line + 4 * i + 4);
    if (sec) iru_cost_.insert(iru_cost_.end(), sec + 4 * i, sec + 4 * i + 4);
  }
  // All lanes inactive: every element was handed out or merged (the IRU's
  // reply rule 1), so this and any later reply carry nothing.
  if (!any) iru_done_ = true;
}

namespace {
bool any_active(const uint8_t* line) {
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t x;
    std::memcpy(&x, line + 4 * i, 4);
    if (x != kIruInactive) return true;
  }
  return false;
}
} // namespace

void ScuModule::take_pulled(Payload& t) {
  auto& p = static_cast<GpuPayload&>(t);
  if (!want_sec_) return take_reply(p.data());
  PullSlot& s = slots_.at(access_of(p).src_warp);
  if (s.state == Slot::Line1) { // the costs of the reply the slot holds
    take_reply(s.ids.data(), p.data());
    s.state = Slot::Free;
  } else if (any_active(p.data())) { // line 0: its costs are the next load
    s.ids.assign(p.data(), p.data() + 4 * 32);
    s.state = Slot::NeedSec;
  } else {
    take_reply(p.data());
    s.state = Slot::Free;
  }
}

void ScuModule::hand_to_iru(const ScuCommand& c, std::vector<Addr>& words,
                            std::vector<uint32_t>& costs, const DeviceMemory& mem,
                            const Deliver& deliver) {
  if (words.empty()) return;
  // The elements leave the generator at `width` a cycle from `from` (the
  // chunk's vectors in, the chunk before generated), a fetch request per
  // run of consecutive words in one line (as the partitions read them) as
  // soon as its last word is generated: lt books its fetch from then, at
  // hands it over then. Functional hands everything over at once.
  const Cycle from = ctx_.timed() ? std::max(gen_, now()) : 0;
  if (!stream_.iru) {
    IruControl* iru = IruControl::of(ctx_);
    if (!iru || !iru->enabled())
      throw ConfigError("SCU " + std::string(c.name()) +
                        ": scu.filter_unit = iru needs IRU partitions placed and enabled (blocks "
                        "of type iru, iru.enabled = true; examples/iscu/)");
    if (ctx_.net.line_bytes < 128)
      throw ConfigError("SCU: scu.filter_unit = iru needs lines of at least 128 bytes (an IRU "
                        "reply is 32 four-byte lanes)");
    IruConfig cfg;
    cfg.target = 0; // the element's own block places it: equal values meet in one set
    cfg.elem_bytes = 4;
    cfg.streamed = true;
    // Sum: equal IDs' weights are added (PageRank's reduction, notes P16);
    // BestCost: the merge keeps the cheapest copy (its cost the secondary).
    cfg.merge = c.filter == ScuFilter::Sum ? IruMerge::AddF32 : IruMerge::MinU32;
    // Only the unique filter can drop an ID for good: a best-cost copy may be
    // cheaper later, and a sum needs every share.
    cfg.remember = c.filter == ScuFilter::Unique;
    cfg.forget = c.fresh;
    iru->configure(cfg, mem);
    stream_.iru = iru;
    iru_out_.clear();
    iru_cost_.clear();
    iru_done_ = false;
    want_sec_ = !costs.empty();
    // The filter unit's stage pulls from now (lt: from `from`), beside the
    // generator, which goes on handing elements over.
    run_filter([this, &deliver] { pull_iru(deliver); });
    filter_at_ = std::max(filter_at_, from);
  }
  const unsigned lb = ctx_.net.line_bytes;
  for (size_t i = 0, j; i < words.size(); i = j) {
    j = ctx_.timed() ? i + 1 : words.size();
    while (j < words.size() && words[j] == words[j - 1] + 4 && words[j] / lb == words[i] / lb)
      ++j;
    const Cycle ready = ctx_.timed() ? from + (j + spec_.width - 1) / spec_.width : 0;
    if (ctx_.at() && clk_.now() < ready) wait(clk_.until(ready));
    const std::span<const Addr> run(words.data() + i, j - i);
    const std::span<const uint32_t> run_costs =
        costs.empty() ? std::span<const uint32_t>()
                      : std::span<const uint32_t>(costs.data() + i, j - i);
    stream_.iru->append(run, run_costs, ready, mem); // the partitions fetch its line from then
    gen_ = std::max(gen_, ready);
  }
  stream_.handed += words.size();
  iru_elements_ += words.size();
  words.clear();
  costs.clear();
}

void ScuModule::close_iru() {
  if (!stream_.iru || stream_.closed) return;
  stream_.closed = true;
  stream_.closed_at = ctx_.timed() ? std::max(gen_, now()) : 0;
  stream_.iru->close();
}

void ScuModule::end_iru() {
  if (!stream_.iru) return;
  if (stream_.iru->remaining())
    throw SimError("SCU: the IRU reported every element handed out with " +
                   std::to_string(stream_.iru->remaining()) + " left");
  filtered_ += stream_.handed - stream_.taken;
  // How far the stages overlapped: replies taken while elements were still
  // being handed over, and output written while replies were still coming.
  const IruStream& s = stream_;
  if (s.taken && s.first_reply < s.closed_at) iru_fetch_overlap_ += s.closed_at - s.first_reply;
  if (s.taken && s.first_write < s.last_reply) iru_write_overlap_ += s.last_reply - s.first_write;
  stream_ = IruStream();
}

void ScuModule::deliver_replies(const Deliver& deliver) {
  if (iru_out_.empty()) return;
  const Cycle t = now();
  stream_.first_reply = std::min(stream_.first_reply, t);
  stream_.last_reply = std::max(stream_.last_reply, t);
  stream_.taken += iru_out_.size() / 4;
  deliver(iru_out_, iru_cost_);
  iru_out_.clear();
  iru_cost_.clear();
}

void ScuModule::pull_iru(const Deliver& deliver) {
  IruControl& iru = *stream_.iru;
  const unsigned lb = ctx_.net.line_bytes;
  const uint32_t parts = iru.partitions();
  const uint64_t window = spec_.iru_requests;
  Req r{0, false, 0, {}, {}};
  uint32_t p = 0;
  if (!ctx_.at()) {
    // lt, functional: each request is answered by playing the partitions
    // forward from its start (IruCore::reply_by); `window` at a time, from
    // the stage's time (the first elements handed over). Every element is
    // with the IRU by now (lt books their cycles): the pulls run after the
    // generator's calls, at the cycles they would have.
    std::priority_queue<Cycle, std::vector<Cycle>, std::greater<>> busy;
    const Cycle t0 = lt_now_;
    Cycle end = t0;
    while (!iru_done_) {
      Cycle start = t0;
      if (busy.size() >= window) start = std::max(start, busy.top()), busy.pop();
      r.line = iru.window(p++ % parts);
      GpuPayload* t = make(r);
      const Cycle base = clk_.now();
      sc_core::sc_time d = clk_.cycles(std::max(start, base) - base);
      port.b_transport(*t, d);
      if (want_sec_ && any_active(t->data())) { // then window line 1: the costs
        Req l1 = r;
        l1.line += lb;
        GpuPayload* s = make(l1);
        port.b_transport(*s, d);
        take_reply(t->data(), s->data());
        s->release();
      } else {
        take_reply(t->data());
      }
      t->release();
      const Cycle done = base + clk_.at_or_after(d);
      busy.push(done);
      end = std::max(end, done);
      lt_now_ = done; // the data store writes the reply from its answer
      deliver_replies(deliver);
    }
    lt_now_ = end;
    return;
  }
  if (want_sec_) return pull_with_costs(iru, window, deliver);
  while (!iru_done_) {
    while (!iru_done_ && (outstanding_ >= window || !port.can_send())) {
      wait(answered_);
      deliver_replies(deliver);
    }
    if (iru_done_) break;
    r.line = iru.window(p++ % parts);
    ++outstanding_;
    GpuPayload* t = make(r);
    t->set_initiator_state(uint8_t(1));
    port.send(*t);
  }
  while (outstanding_) {
    wait(answered_);
    deliver_replies(deliver);
  }
  deliver_replies(deliver);
}

void ScuModule::pull_with_costs(IruControl& iru, uint64_t window, const Deliver& deliver) {
  // Each slot loads window line 0 (a reply's IDs), then line 1 (their
  // costs) before it takes another reply: the IRU pairs the two by the
  // slot's src_warp.
  const unsigned lb = ctx_.net.line_bytes;
  slots_.assign(window, PullSlot());
  uint32_t p = 0;
  auto busy = [&] {
    return std::any_of(slots_.begin(), slots_.end(),
                       [](const PullSlot& s) { return s.state != Slot::Free; });
  };
  while (!iru_done_ || busy()) {
    bool sent = false;
    for (uint16_t k = 0; k < slots_.size() && port.can_send(); ++k) {
      PullSlot& s = slots_[k];
      if (s.state == Slot::NeedSec) {
        s.state = Slot::Line1;
      } else if (s.state == Slot::Free && !iru_done_) {
        s.state = Slot::Line0;
        s.window = iru.window(p++ % iru.partitions());
      } else {
        continue;
      }
      ++outstanding_;
      GpuPayload* t = make({s.window + (s.state == Slot::Line1 ? lb : 0), false, 0, {}, {}}, k);
      t->set_initiator_state(uint8_t(1));
      port.send(*t);
      sent = true;
    }
    if (!sent) {
      wait(answered_);
      deliver_replies(deliver);
    }
  }
  deliver_replies(deliver);
}

} // namespace tlmgpu
