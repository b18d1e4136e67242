// DAB's GPU-wide flush protocol (dab_flush_module.hpp).
#include "models/atomic_buffer/dab_flush_module.hpp"

#include "models/atomic_buffer/dab_module.hpp"
#include "models/atomic_buffer/dab_reorder_module.hpp"
#include "tlmgpu/invariant.hpp"
#include "tlmgpu/sim/wait_report.hpp"

#include <algorithm>
#include <sstream>

using namespace sc_core;

namespace tlmgpu {

void split_for_requests(std::vector<FlushPacket>& packets) {
  // A request carries one op and type and at most kDabLanes lanes: a
  // coalesced sector whose entries differ in op or type, or that holds more
  // entries than a warp has lanes (no fusion), leaves as several packets, in
  // entry order. Nothing to do in the common case.
  const bool simple = std::all_of(packets.begin(), packets.end(), [](const FlushPacket& p) {
    return p.ops.size() <= kDabLanes && std::all_of(p.ops.begin(), p.ops.end(), [&](auto& o) {
             return o.op == p.ops[0].op && o.type == p.ops[0].type;
           });
  });
  if (simple) return;
  std::vector<FlushPacket> out;
  for (FlushPacket& p : packets)
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const FlushOp& o = p.ops[i];
      if (i == 0 || out.back().ops.size() == kDabLanes || o.op != out.back().ops[0].op ||
          o.type != out.back().ops[0].type) {
        out.emplace_back();
        out.back().sector = p.sector;
      }
      out.back().ops.push_back(o);
    }
  packets = std::move(out);
}

void flush_packet_to_payload(GpuPayload& p, const FlushPacket& f, uint32_t line_bytes) {
  const Addr line = f.sector & ~Addr{line_bytes - 1};
  GpuAccess a;
  a.kind = AccessKind::Red;
  a.op = f.ops.at(0).op;
  a.type = f.ops[0].type;
  a.src_sm = uint16_t(f.port);
  a.src_cta = f.sm;
  a.order_tag = (f.epoch << 32) | f.seq;
  TLMGPU_CHECK(f.epoch != 0 && f.ops.size() <= kDabLanes);
  a.lanes.reserve(unsigned(f.ops.size()));
  for (size_t i = 0; i < f.ops.size(); ++i)
    a.lanes.push_back(LaneOp{uint16_t(f.ops[i].addr - line), uint8_t(i), f.ops[i].operand, 0, 0});
  a.sector_mask = 0; // set from the lanes below (the sectors the ops touch)
  p.setup(tlm::TLM_READ_COMMAND, line, line_bytes, a);
}

FlushPacket flush_packet_of(GpuPayload& p, uint32_t partition) {
  const GpuAccess& a = p.access();
  FlushPacket f;
  f.epoch = a.order_tag >> 32;
  f.seq = uint32_t(a.order_tag);
  f.sm = a.src_cta;
  f.port = a.src_sm;
  f.partition = partition;
  for (unsigned i = 0; i < a.lanes.size(); ++i)
    f.ops.push_back(
        FlushOp{p.get_address() + a.lanes[i].offset, a.op, a.type, a.lanes[i].operand, i});
  f.sector = f.ops.empty() ? p.get_address() : f.ops[0].addr;
  return f;
}

DabFlushControl::DabFlushControl(SimContext& ctx, const AtomicBufferSpec& spec, double clock_mhz)
    : ctx_(ctx), spec_(spec), clk_(clock_mhz),
      flushes_(ctx.stats.counter("dab_flushes", "flushes",
                                 "DAB flush epochs (GPU-wide, or one cluster's under NR-CIF)")),
      flush_cycles_(ctx.stats.counter("dab_flush_cycles", "cycles",
                                      "cycles from a flush's start to its last packet applied "
                                      "(summed over epochs; the SMs' ordered instructions wait)")),
      empty_rounds_(ctx.stats.counter("dab_empty_rounds", "rounds",
                                      "times the SMs of a flush domain (the GPU, or a cluster "
                                      "under NR-CIF) became READY with nothing buffered")) {
  if (spec.allow_overlap)
    overlapped_ = &ctx.stats.counter("dab_overlapped_flushes", "flushes",
                                     "NR-OF: flushes that started while an earlier epoch of "
                                     "their SMs was still being applied");
  sc_spawn([this] { run(); }, "dab_flush_control");
  ctx.kernel_end_waits.push_back({[this] { return busy(); }, &changed_});
  WaitReports::of(ctx).add([this] { return state(); });
}

// One line for a deadlock report: a flush that never ends and SMs that never
// all become READY look the same from the SMs' side (ordered instructions
// held by the gate); this says which.
std::string DabFlushControl::state() const {
  std::ostringstream os;
  os << "dab flush: " << epoch_ << " epochs started";
  for (size_t i = 0; i < domains_.size(); ++i) {
    const Domain& d = domains_[i];
    const auto ready_sms =
        std::count_if(d.sms.begin(), d.sms.end(), [](DabModule* s) { return s->ready(); });
    if (domains_.size() > 1) os << "; cluster " << i;
    os << "; " << ready_sms << "/" << d.sms.size() << " SMs READY"
       << (empty(d) ? ", nothing buffered" : "") << (d.starting ? ", a flush starting" : "");
    if (!d.open.empty())
      os << ", " << d.open.size() << " epochs injected, not applied (oldest " << d.open.front()
         << ")";
  }
  return os.str();
}

void DabFlushControl::attach(DabModule* s) {
  if (sms_.size() <= s->sm()) sms_.resize(s->sm() + 1, nullptr);
  if (sms_[s->sm()]) throw ConfigError("sm.stages lists 'dab' twice (one per SM)");
  sms_[s->sm()] = s;
}

void DabFlushControl::attach(DabReorderModule* u, uint32_t partition) {
  if (units_.size() <= partition) units_.resize(partition + 1, nullptr);
  if (units_[partition])
    throw ConfigError("two dab_reorder units claim L2 slice " + std::to_string(partition));
  units_[partition] = u;
}

void DabFlushControl::make_domains() {
  const size_t per = spec_.flush_granularity == "cluster" ? spec_.cluster_sms : sms_.size();
  for (size_t i = 0; i < sms_.size(); ++i) {
    if (i % per == 0) domains_.emplace_back();
    domains_.back().sms.push_back(sms_[i]);
  }
}

bool DabFlushControl::ready(const Domain& d) const {
  return std::all_of(d.sms.begin(), d.sms.end(), [](DabModule* s) { return s->ready(); });
}
bool DabFlushControl::empty(const Domain& d) const {
  return std::all_of(d.sms.begin(), d.sms.end(), [](DabModule* s) { return s->empty(); });
}
bool DabFlushControl::busy() const {
  return std::any_of(domains_.begin(), domains_.end(),
                     [](const Domain& d) { return d.starting || !d.open.empty(); }) ||
         !std::all_of(sms_.begin(), sms_.end(), [](DabModule* s) { return s->settled(); });
}

void DabFlushControl::run() {
  make_domains();
  for (;;) {
    wait(poke_);
    changed_.notify(SC_ZERO_TIME); // the kernel end re-tests busy()
    for (size_t d = 0; d < domains_.size(); ++d) {
      Domain& dom = domains_[d];
      // Without overlap, a flush waits for the previous one to be applied.
      if (dom.starting || (!spec_.allow_overlap && !dom.open.empty()) || !ready(dom)) {
        dom.idle = false;
        continue;
      }
      if (empty(dom)) {
        if (!dom.idle) ++empty_rounds_; // once per time it became so, not per poke
        dom.idle = true;
        continue;
      }
      dom.idle = false;
      dom.starting = true;
      if (overlapped_ && !dom.open.empty()) ++*overlapped_;
      sc_spawn([this, d] { flush(d); }, sc_gen_unique_name("dab_flush"));
    }
  }
}

bool DabFlushControl::applied_at(uint64_t e, const Domain& d) const {
  return std::all_of(d.sms.begin(), d.sms.end(), [e](DabModule* s) { return s->acked(e); }) &&
         std::all_of(units_.begin(), units_.end(),
                     [e](DabReorderModule* u) { return u->applied(e); });
}

void DabFlushControl::flush(size_t d) {
  Domain& dom = domains_[d];
  const sc_time start = sc_time_stamp();
  if (spec_.flush_start_cycles && ctx_.timed()) wait(clk_.cycles(spec_.flush_start_cycles));
  // Buffers stay READY until drained (nothing can enter a READY buffer), so
  // what each SM drains now is what it held when the last one became READY.
  const uint64_t e = ++epoch_;
  ++flushes_;
  finished_[e] = false;
  const uint32_t slices = ctx_.address_map.slices();
  // [source][slice]: a source is an SM, or a CTA group (dab.keying = group);
  // the sources of other domains announce zero packets.
  std::vector<std::vector<uint32_t>> counts(dab_sources(ctx_.platform),
                                            std::vector<uint32_t>(slices, 0));
  for (DabModule* s : dom.sms)
    s->drain(e, counts);
  if (spec_.reorder || !units_.empty()) {
    if (units_.size() != slices || std::count(units_.begin(), units_.end(), nullptr))
      throw SimError(
          "DAB needs a dab_reorder unit in front of every L2 slice (" + std::to_string(slices) +
          "); the topology places " +
          std::to_string(units_.size() - std::count(units_.begin(), units_.end(), nullptr)) +
          " (see examples/dab/)");
    for (uint32_t p = 0; p < slices; ++p) {
      std::vector<uint32_t> col(counts.size());
      for (size_t s = 0; s < counts.size(); ++s)
        col[s] = counts[s][p];
      units_[p]->preflush(e, col);
    }
  }
  const sc_time injected_at = sc_time_stamp();
  DabModule::Injection last;
  for (DabModule* s : dom.sms) {
    const DabModule::Injection i = s->inject(SC_ZERO_TIME);
    last.out = std::max(last.out, i.out);
    last.applied = std::max(last.applied, i.applied);
  }
  // Reds may enter the buffers again once every packet is out (P13); at:
  // each SM reopens its own when its last packet leaves.
  if (ctx_.at()) {
    while (!std::all_of(dom.sms.begin(), dom.sms.end(), [](DabModule* s) { return s->injected(); }))
      wait(poke_);
  } else {
    if (last.out > SC_ZERO_TIME) wait(last.out);
    for (DabModule* s : dom.sms)
      s->injection_done();
  }
  // NR-OF: the next epoch may start now, before this one is applied.
  if (spec_.allow_overlap) {
    dom.open.push_back(e);
    dom.starting = false;
    poke();
  }
  if (ctx_.at()) {
    while (!applied_at(e, dom))
      wait(poke_);
  } else {
    for (DabReorderModule* u : units_)
      if (!u->applied(e))
        throw InvariantError("DAB epoch " + std::to_string(e) + ": " + u->state() +
                             " after every SM sent its packets");
    const sc_time left = injected_at + last.applied - sc_time_stamp();
    if (last.applied > SC_ZERO_TIME && left > SC_ZERO_TIME) wait(left);
  }
  flush_cycles_ += clk_.at(sc_time_stamp()) - clk_.at(start);
  // With overlap this was done after the injection, and a later flush of the
  // domain may be starting by now: its flag is not ours to clear.
  if (!spec_.allow_overlap) {
    dom.open.push_back(e);
    dom.starting = false;
  }
  finished_[e] = true;
  retire(dom);
  changed_.notify(SC_ZERO_TIME);
  poke(); // the next epoch may be due at once
}

void DabFlushControl::retire(Domain& dom) {
  while (!dom.open.empty() && finished_.at(dom.open.front())) {
    const uint64_t e = dom.open.front();
    dom.open.pop_front();
    finished_.erase(e);
    for (DabModule* s : dom.sms)
      s->applied(e);
  }
}

} // namespace tlmgpu
