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

void ScuModule::write_lines(Addr base, const std::vector<uint8_t>& bytes) {
  const unsigned lb = ctx_.net.line_bytes;
  std::vector<Req> w;
  for (size_t i = 0; i < bytes.size();) {
    const Addr line = (base + i) / lb * lb;
    Req r{line, true, spec_.stage_cycles + i / 4 / spec_.width, std::vector<uint8_t>(lb, 0),
          std::vector<uint8_t>(lb, 0)};
    for (; i < bytes.size() && (base + i) / lb * lb == line; ++i)
      r.data[base + i - line] = bytes[i], r.be[base + i - line] = 0xff;
    w.push_back(std::move(r));
  }
  writes_ += w.size();
  transfer(w);
}

std::vector<uint8_t> ScuModule::filter_in_iru(const ScuCommand& c, const std::vector<Addr>& words,
                                              const std::vector<uint32_t>& costs,
                                              const DeviceMemory& mem) {
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
  cfg.n = words.size();
  cfg.gather = words;
  cfg.gather_secondary = costs; // BestCost: the merge keeps the cheapest copy
  // Sum: equal IDs' weights are added (PageRank's reduction, notes P16).
  cfg.merge = c.filter == ScuFilter::Sum ? IruMerge::AddF32 : IruMerge::MinU32;
  // Only the unique filter can drop an ID for good: a best-cost copy may be
  // cheaper later, and a sum needs every share.
  cfg.remember = c.filter == ScuFilter::Unique;
  cfg.forget = c.fresh;
  iru->configure(cfg, mem); // the partitions fetch their lines from now
  iru_elements_ += words.size();
  iru_out_.clear();
  iru_cost_.clear();
  iru_done_ = false;
  want_sec_ = !costs.empty();
  const unsigned lb = ctx_.net.line_bytes;
  const uint32_t parts = iru->partitions();
  const uint64_t window = spec_.iru_requests;
  Req r{0, false, 0, {}, {}};
  uint32_t p = 0;
  if (!ctx_.at()) {
    // lt, functional: each request is answered by playing the partitions
    // forward from its start (IruCore::reply_by); `window` at a time.
    std::priority_queue<Cycle, std::vector<Cycle>, std::greater<>> busy;
    const Cycle t0 = clk_.now();
    Cycle end = t0;
    while (!iru_done_) {
      Cycle start = t0;
      if (busy.size() >= window) start = std::max(start, busy.top()), busy.pop();
      r.line = iru->window(p++ % parts);
      GpuPayload* t = make(r);
      sc_core::sc_time d = clk_.cycles(start - t0);
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
      const Cycle done = t0 + clk_.at_or_after(d);
      busy.push(done);
      end = std::max(end, done);
    }
    wait(clk_.until(end));
  } else {
    pulling_ = true;
    if (want_sec_) {
      pull_with_costs(*iru, window);
    } else {
      while (!iru_done_) {
        while (!iru_done_ && (outstanding_ >= window || !port.can_send()))
          wait(answered_);
        if (iru_done_) break;
        r.line = iru->window(p++ % parts);
        ++outstanding_;
        port.send(*make(r));
      }
      while (outstanding_)
        wait(answered_);
    }
    pulling_ = false;
  }
  if (iru->remaining())
    throw SimError("SCU: the IRU reported every element handed out with " +
                   std::to_string(iru->remaining()) + " left");
  filtered_ += words.size() - iru_out_.size() / 4;
  return std::move(iru_out_);
}

void ScuModule::pull_with_costs(IruControl& iru, uint64_t window) {
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
      port.send(*make({s.window + (s.state == Slot::Line1 ? lb : 0), false, 0, {}, {}}, k));
      sent = true;
    }
    if (!sent) wait(answered_);
  }
}

} // namespace tlmgpu
