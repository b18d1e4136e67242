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

void ScuModule::take_reply(const uint8_t* line) {
  ++iru_replies_;
  bool any = false;
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t x;
    std::memcpy(&x, line + 4 * i, 4);
    if (x == kIruInactive) continue;
    any = true;
    iru_out_.insert(iru_out_.end(), line + 4 * i, line + 4 * i + 4);
  }
  // All lanes inactive: every element was handed out or merged (the IRU's
  // reply rule 1), so this and any later reply carry nothing.
  if (!any) iru_done_ = true;
}

std::vector<uint8_t> ScuModule::filter_in_iru(const ScuCommand& c, const std::vector<Addr>& words,
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
  cfg.merge = IruMerge::MinU32;
  iru->configure(cfg, mem); // the partitions fetch their lines from now
  iru_elements_ += words.size();
  iru_out_.clear();
  iru_done_ = false;
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
      take_reply(t->data());
      t->release();
      const Cycle done = t0 + clk_.at_or_after(d);
      busy.push(done);
      end = std::max(end, done);
    }
    wait(clk_.until(end));
  } else {
    pulling_ = true;
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
    pulling_ = false;
  }
  if (iru->remaining())
    throw SimError("SCU: the IRU reported every element handed out with " +
                   std::to_string(iru->remaining()) + " left");
  filtered_ += words.size() - iru_out_.size() / 4;
  return std::move(iru_out_);
}

} // namespace tlmgpu
