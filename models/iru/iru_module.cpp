// An IRU partition's prefetcher and classifier, and the shared controller.
#include "models/iru/iru_module.hpp"

#include <algorithm>
#include <cstring>
#include <queue>
#include <sstream>
#include <stdexcept>

using namespace sc_core;

namespace tlmgpu {

// ---------------------------------------------------------------- IruControl

IruControl::IruControl(SimContext& ctx, const IruSpec& spec, uint32_t partitions,
                       uint32_t mem_ports)
    : ctx_(ctx), spec_(spec), partitions_(partitions), clk_(spec.clock_mhz),
      core_(
          {partitions, spec.sets, spec.slots, spec.banks, ctx.net.line_bytes, spec.filter_residue}),
      layout_(mem_ports, ctx.net.line_bytes,
              [&ctx](Addr a) { return ctx.address_map.slice_of(a); }),
      parts_(partitions, nullptr) {}

IruControl* IruControl::of(SimContext& ctx) {
  return ctx
      .shared<std::unique_ptr<IruControl>>("iru", [] { return new std::unique_ptr<IruControl>(); })
      .get();
}

void IruControl::add(IruModule& m, uint32_t index) {
  if (index >= partitions_ || parts_[index])
    throw ConfigError("IRU: partition " + std::to_string(index) + " placed twice or beyond " +
                      std::to_string(partitions_));
  parts_[index] = &m;
}

Addr IruControl::window(uint32_t p) const {
  if (p >= partitions_ || !parts_[p]) throw ConfigError("IRU: no partition " + std::to_string(p));
  return parts_[p]->window();
}

IruDevice IruControl::device() const {
  // The factory puts partition p's window at device_base + p * window bytes.
  const Addr w0 = window(0);
  return {w0, uint32_t(partitions_ > 1 ? window(1) - w0 : 0), partitions_, ctx_.net.line_bytes};
}

bool configure_iru(SimContext& ctx, const IruConfig& c, const DeviceMemory& mem) {
  IruControl* iru = IruControl::of(ctx);
  return iru && iru->configure(c, mem);
}

uint64_t IruControl::idle_mask() const {
  uint64_t m = ~0ull;
  for (uint32_t p = 0; p < partitions_ && p < 64; ++p)
    if (parts_[p] && parts_[p]->waiting()) m &= ~(1ull << p);
  return m;
}

void IruControl::sync_all() {
  for (IruModule* m : parts_)
    if (m) m->sync_stats();
}

bool IruControl::configure(const IruConfig& c, const DeviceMemory& mem) {
  if (!spec_.enabled) return false;
  if (std::string p = c.problem(); !p.empty()) throw ConfigError("configure_iru: " + p);
  auto check = [&](const char* what, Addr a, uint64_t bytes) {
    if (!bytes || mem.contains(a, bytes)) return;
    std::ostringstream os;
    os << "configure_iru: " << what << " 0x" << std::hex << a << std::dec << " (" << bytes
       << " bytes) is outside every device allocation";
    throw ConfigError(os.str());
  };
  if (c.gather.empty()) check("indices", c.indices, 4 * c.n);
  for (Addr a : c.gather)
    check("gather word", a, 4);
  check("secondary", c.secondary, c.secondary ? 4 * c.n : 0);
  for (uint32_t p = 0; p < partitions_; ++p)
    if (!parts_[p]) throw ConfigError("IRU: partition " + std::to_string(p) + " was not built");
  cfg_ = c;
  ++epoch_; // lines and ring packets still under way belong to the last one
  core_.configure(c, c.merge.value_or(iru_merge_of(spec_.merge)));
  for (IruModule* m : parts_) // lt: a partition's first lines reach the others within begin()
    m->reset();
  for (IruModule* m : parts_)
    m->begin();
  kick();
  return true;
}

void IruControl::append(std::span<const Addr> words, std::span<const uint32_t> secondary,
                        Cycle ready, const DeviceMemory& mem) {
  if (!cfg_.streamed) throw std::logic_error("IRU: append to a configuration that is not streamed");
  if (!secondary.empty() && secondary.size() != words.size())
    throw std::logic_error("IRU: append: one secondary word per word, or none");
  for (Addr a : words)
    if (a % 4 || !mem.contains(a, 4))
      throw ConfigError("configure_iru: a gathered word is unaligned or outside every device "
                        "allocation");
  const uint32_t first = uint32_t(cfg_.n);
  cfg_.gather.insert(cfg_.gather.end(), words.begin(), words.end());
  cfg_.gather_secondary.insert(cfg_.gather_secondary.end(), secondary.begin(), secondary.end());
  if (!cfg_.gather_secondary.empty() && cfg_.gather_secondary.size() != cfg_.gather.size())
    throw std::logic_error("IRU: append: secondary words for some positions only");
  cfg_.n = cfg_.gather.size();
  core_.add(words.size());
  for (IruModule* m : parts_)
    m->extend(first, ready);
  kick();
}

void IruControl::close() {
  core_.close();
  kick(); // a request may now be answered by the drain
}

void IruControl::wake_at(Cycle c) {
  if (!ctx_.at() || c >= wake_) return;
  wake_ = c;
  Calendar::get().schedule(clk_.until(c), [this, c] {
    if (c == wake_) service(); // else an earlier wake replaced it
  });
}

// One pass over every partition whenever something changed (a request, a
// line, a packet, a reply): the reply rules are global (the element count,
// sets taken from other partitions), so a change anywhere may answer a
// request anywhere.
void IruControl::service() {
  wake_ = kIruNever;
  const Cycle now = clk_.now();
  core_.advance(now);
  for (IruModule* m : parts_)
    m->serve(now);
  for (IruModule* m : parts_)
    m->issue();
  Cycle next = kIruNever;
  bool wanted = false;
  for (IruModule* m : parts_) {
    wanted |= m->needs_service();
    if (m->needs_service()) next = std::min(next, m->next_timeout(now));
  }
  if (wanted) next = std::min(next, core_.next_insert());
  sync_all();
  if (next != kIruNever) wake_at(std::max(next, now + 1));
}

// ----------------------------------------------------------------- IruModule

IruModule::IruModule(sc_module_name n, SimContext& ctx, const IruSpec& spec, uint32_t index,
                     uint32_t partitions, uint32_t mem_ports, Addr window, StatGroup& parent)
    : sc_module(n), req("req", 2, // the requests buffer is waiting_ (spec.requests_buffer)
                        TargetPort::Hooks{[this](Payload& t, sc_time& d) { req_b_transport(t, d); },
                                          [](Payload& t) {
                                            std::memset(t.get_data_ptr(), 0, t.get_data_length());
                                            return t.get_data_length();
                                          },
                                          [this] { pull_requests(); }}),
      ring_in("ring_in", 4,
              TargetPort::Hooks{[this](Payload& t, sc_time& d) { ring_b_transport(t, d); },
                                [](Payload&) { return 0u; },
                                [this] {
                                  while (ring_in.has_request()) {
                                    auto& t = static_cast<GpuPayload&>(ring_in.front());
                                    ring_in.pop();
                                    ring_arrived(&t);
                                  }
                                }}),
      ring_out(
          "ring_out", 4, [](Payload& t) { static_cast<GpuPayload&>(t).release(); },
          [this] { pump_ring(); }),
      ctx_(ctx), spec_(spec), index_(index), window_(window), clk_(spec.clock_mhz),
      control_([&]() -> IruControl& {
        auto& slot = ctx.shared<std::unique_ptr<IruControl>>(
            "iru", [] { return new std::unique_ptr<IruControl>(); });
        if (!slot) slot = std::make_unique<IruControl>(ctx, spec, partitions, mem_ports);
        return *slot;
      }()),
      open_(partitions), stats_(parent, basename()),
      lines_read_(stats_.counter("lines_read", "lines", "index and secondary lines prefetched")),
      elements_(stats_.counter("elements", "elements", "elements classified here")),
      ring_packets_(stats_.counter("ring_packets", "packets",
                                   "packets this partition put "
                                   "on the ring")),
      ring_forwarded_(
          stats_.counter("ring_forwarded", "packets", "packets passed on to the next partition")),
      ring_hops_(stats_.counter("ring_element_hops", "elements",
                                "elements and secondary words this partition moved one hop on "
                                "the ring (sent or passed on; energy)")),
      secondary_sent_(stats_.counter("secondary_sent", "words",
                                     "secondary words sent to the partition holding their index")),
      requests_(stats_.counter("requests", "requests", "warp load_iru requests (index line)")),
      companions_(stats_.counter("companion_loads", "requests",
                                 "loads of a reply's secondary words or positions")),
      replies_full_(stats_.counter("replies_full", "replies", "answered with a full set")),
      replies_timeout_(
          stats_.counter("replies_timeout", "replies", "answered at the timeout (partial sets)")),
      replies_drain_(
          stats_.counter("replies_drain", "replies", "answered at the drain (partial sets)")),
      replies_inactive_(
          stats_.counter("replies_inactive", "replies", "every element gone: all lanes inactive")),
      replied_(stats_.counter("replied", "elements", "elements handed to warps")),
      stolen_(stats_.counter("stolen", "elements", "of them taken from other partitions' sets")),
      arrived_(stats_.counter("arrived", "elements", "elements queued for this slice's hash")),
      inserted_(stats_.counter("inserted", "elements", "elements appended to a set")),
      merged_(
          stats_.counter("merged", "elements", "elements merged into an equal index (filtered)")),
      remembered_(stats_.counter("remembered", "elements",
                                 "of merged: dropped because their set replied the same ID "
                                 "earlier (iru.filter_residue, the ISCU's persistent filter)")),
      stalls_(stats_.counter("insert_stalls", "events", "an insertion found its set full")),
      prefetch_stalls_(stats_.counter("prefetch_stalls", "events",
                                      "the prefetcher waited for the classifier to drain")),
      wait_(stats_.average("request_wait", "cycles", "request arrival to reply")),
      blocks_(stats_.average("reply_blocks", "blocks",
                             "distinct memory blocks per reply with elements (its coalescing)")),
      ring_fill_(stats_.histogram("ring_buffer", "elements",
                                  "elements waiting to pass on, sampled per packet", 32, 16)) {
  for (uint32_t s = 0; s < mem_ports; ++s)
    mem.push_back(std::make_unique<InitiatorPort>(("mem_" + std::to_string(s)).c_str(),
                                                  spec.prefetch_in_flight,
                                                  [this](Payload& t) { on_mem_response(t); },
                                                  [this] {
                                                    issue();
                                                    if (throttled_)
                                                      control_.kick(); // the service loop retries
                                                  }));
  stats_.formula("conflicts", "elements", "appended to a set tagged with another block",
                 [this](StatView) { return double(control_.core().conflicts(index_)); });
  req.publish(stats_);
  control_.add(*this, index);
}

GpuPayload* IruModule::read(Addr line) {
  const unsigned lb = ctx_.net.line_bytes;
  GpuAccess a;
  a.kind = AccessKind::Load;
  a.src_sm = 0xffff; // not an SM
  a.sector_mask = (1u << (lb / ctx_.net.sector_bytes)) - 1;
  a.txn_id = ctx_.pool.next_txn_id();
  GpuPayload* t = ctx_.pool.allocate();
  t->setup(tlm::TLM_READ_COMMAND, line, lb, a);
  return t;
}

void IruModule::reset() {
  lines_ = control_.layout().lines(control_.config(), index_);
  next_ = 0;
  throttled_ = false;
  pairing_.clear();
  lt_busy_ = {};
}

void IruModule::extend(uint32_t first, Cycle ready) {
  for (const IruLayout::Line& l : control_.layout().lines(control_.config(), index_, first))
    lines_.push_back(l);
  if (ctx_.at())
    issue();
  else
    prefetch_blocking(ctx_.timed() ? std::max(ready, clk_.now()) : 0);
}

void IruModule::begin() {
  if (ctx_.at())
    issue();
  else
    prefetch_blocking(ctx_.timed() ? clk_.now() : 0);
}

// lt and functional: every line is read now, each starting when one of the
// `prefetch_in_flight` slots is free; its elements reach the hash at the
// cycles the reads finish. The classifier's back-pressure is not modelled
// here (at models it).
void IruModule::prefetch_blocking(Cycle t0) {
  auto& busy = lt_busy_;
  for (uint32_t k = next_; k < lines_.size(); ++k, ++next_) {
    Cycle start = t0;
    if (busy.size() >= spec_.prefetch_in_flight) start = std::max(start, busy.top()), busy.pop();
    GpuPayload* t = read(lines_[k].addr);
    sc_time d = ctx_.timed() ? clk_.until(start) : SC_ZERO_TIME;
    mem[lines_[k].slot]->b_transport(*t, d);
    const Cycle done = ctx_.timed() ? clk_.at_or_after(sc_time_stamp() + d) : 0;
    on_line(k, t->data(), done);
    t->release();
    busy.push(done);
  }
  flush_posts();
}

void IruModule::issue() {
  if (!ctx_.at()) return;
  IruCore& core = control_.core();
  throttled_ = false;
  while (next_ < lines_.size() && in_flight_ < spec_.prefetch_in_flight) {
    // Halves waiting for their partner do not count: they leave only when
    // this prefetcher fetches the partner.
    if (core.backlog(index_) + local_elems_ >= spec_.classifier_elements) {
      throttled_ = true; // the service loop retries once insertions made room
      ++prefetch_stalls_;
      return;
    }
    InitiatorPort& port = *mem[lines_[next_].slot];
    if (!port.can_send()) return; // its on_space calls issue() again
    GpuPayload* t = read(lines_[next_].addr);
    t->set_initiator_state(uint64_t(control_.epoch()) << 32 | next_);
    port.send(*t);
    ++next_, ++in_flight_;
  }
}

void IruModule::on_mem_response(Payload& t) {
  auto& p = static_cast<GpuPayload&>(t);
  const uint64_t tag = p.initiator_state<uint64_t>();
  --in_flight_;
  if (uint8_t(tag >> 32) == control_.epoch()) { // else a line of the last configuration
    on_line(uint32_t(tag), p.data(), clk_.now());
    flush_posts();
  }
  p.release();
  issue();
  control_.kick();
}

void IruModule::on_line(uint32_t k, const uint8_t* data, Cycle at) {
  const IruLayout::Line& l = lines_[k];
  const IruConfig& c = control_.config();
  ++lines_read_;
  for (uint32_t pos = l.first; pos < l.last; ++pos) {
    uint32_t w;
    std::memcpy(&w, data + (l.word0 + 4ull * (pos - l.first) - l.addr), 4);
    if (!l.secondary && !c.secondary) {
      classify({w, c.gather_secondary.empty() ? 0u : c.gather_secondary[pos], pos}, at);
      continue;
    }
    const uint32_t owner = control_.layout().owner(c, pos);
    if (l.secondary && owner != index_) {
      const uint32_t pair[2] = {pos, w};
      post(owner, Packet::Secondary, pair, at);
      continue;
    }
    auto whole = l.secondary ? pairing_.secondary(pos, w, at) : pairing_.index(pos, w, at);
    if (whole) classify(whole->e, whole->at);
  }
}

// The classifier: the set's owner decides between this partition's hash
// and the ring (thesis §5.2.2); one stage each for classifying and inserting.
void IruModule::classify(const IruElement& e, Cycle at) {
  if (e.index == kIruInactive)
    throw SimError(std::string(name()) + ": indices[" + std::to_string(e.position) +
                   "] is 0xffffffff, the inactive-lane mark (indices are 24-bit)");
  ++elements_;
  const uint32_t owner = control_.core().routing().place(e.index).partition;
  if (owner == index_) {
    control_.core().arrive(index_, e, at + 2 * spec_.stage_cycles);
    return;
  }
  const uint32_t w[3] = {e.index, e.secondary, e.position};
  post(owner, Packet::Element, w, at + spec_.stage_cycles);
}

void IruModule::sync_stats() {
  const IruCounts& n = control_.core().counts(index_);
  auto add = [](Counter& c, uint64_t now, uint64_t& last) { c += now - last, last = now; };
  add(arrived_, n.arrived, synced_.arrived);
  add(inserted_, n.inserted, synced_.inserted);
  add(merged_, n.merged, synced_.merged);
  add(remembered_, n.remembered, synced_.remembered);
  add(stalls_, n.stalls, synced_.stalls);
}

} // namespace tlmgpu
