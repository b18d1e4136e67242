// The SM's memory path: global loads/stores/atomics through the coalescer
// into the L1 (or the LAB), shared memory, bounds checks, and LAB packets.
// Same class as sm_module.cpp; split only to keep files small.
#include "models/sm/sm_module.hpp"

#include "models/lab/golden_memory.hpp"

#include <sstream>

using namespace sc_core;

namespace tlmgpu {

// LAB packets (evictions, flushes, serialization-only forwards) take the
// blocking path in functional and lt: their data reaches L2 at once, so no
// partial update is ever in flight at an ordering point, and their timing is
// LT-style. In AT they queue for the LD/ST port and ordering points wait for
// their replies (sm_lab.cpp); only ANBF's free flush still comes here.
Cycle SmModule::send_lab_packet(const LabEviction& ev, Cycle at, bool timed) {
  GpuPayload* p = ctx_.pool.allocate();
  GpuAccess a = partial_update_access(ev);
  a.src_sm = id;
  a.txn_id = ctx_.pool.next_txn_id();
  p->setup(tlm::TLM_READ_COMMAND, ev.line, coalescer_.line_bytes(), a);
  sc_time d = timed ? clk_.until(at) : SC_ZERO_TIME;
  const sc_time base = sc_time_stamp();
  lsu_port_.b_transport(*p, d);
  p->release();
  ++*lab_packets_;
  return timed ? clk_.at_or_after(base + d) : at;
}

void SmModule::end_of_work(Cycle at, bool others_running) {
  if (work_flushed_ || !lab_) return;
  work_flushed_ = true;
  if (others_running && !lab_->empty()) ++*lab_early_flushes_;
  work_flush_done_ = flush_lab(true, at);
}

Cycle SmModule::flush_lab(bool kernel_end) {
  return flush_lab(kernel_end, clk_.now());
}

Cycle SmModule::flush_lab(bool kernel_end, Cycle now) {
  if (!lab_) return now;
  const bool timed = ctx_.timed() && lab_->flush_costs_time();
  Cycle done = now;
  if (lab_at_)
    lab_flush_async(now, kernel_end); // AT: the caller waits for the replies
  else
    for (const LabEviction& ev : lab_->flush())
      done = std::max(done, send_lab_packet(ev, now, timed));
  // Every ordering point leaves the LAB empty; checked on every run, so any
  // LAB test that passes also shows it (issue 5: "the LAB is empty after each kernel").
  if (!lab_->empty()) throw SimError(std::string(name()) + ": LAB not empty after its flush");
  return done;
}

// paper_compatible: every LAB-buffered lane also updates the golden memory in
// issue order, and a value-returning lane gets its golden old value: what the
// authors' GPGPU-Sim returns, since it performs every atomic functionally at
// issue (seed-000 pitfall 4). The values reach the warp now, in every timing
// mode: a LAB atomic completes at LAB latency with no response to wait for.
void SmModule::lab_golden(const LineRequest& r, const WarpInstr& in, Lanes<uint64_t>& results) {
  GpuAccess a = r.access; // a copy receives the lanes' old values
  golden_memory->perform(a, r.line);
  if (in.kind != WarpInstr::Kind::Atomic) return;
  Coalescer::scatter_atomic(a, results);
  *lab_golden_returns_ += a.num_lanes;
}

// A plain store keeps the golden words it overwrites current (lane order, so
// the highest lane wins, as in the coalescer). Cheap: nothing to do while no
// LAB atomic touched memory in this kernel.
void SmModule::store_golden(const WarpInstr& in) {
  if (golden_memory->empty()) return;
  for (unsigned l = 0; l < kMaxLanes; ++l) {
    if (!in.mask.test(l)) continue;
    const uint64_t v = in.operand[l]; // raw bits, little-endian like device memory
    golden_memory->store(in.addr[l], reinterpret_cast<const uint8_t*>(&v), in.size);
  }
}

// paper_compatible: a load of a word the golden memory tracks (a LAB-buffered
// atomic touched it this kernel) sees the golden value as of issue, as in the
// authors' GPGPU-Sim, whose functional model performs every access at issue;
// memory below still lacks the partial values the LABs buffer. The values
// are taken now and replace the memory's answer at completion.
void SmModule::load_golden(WarpSlot& w, const WarpInstr& in) {
  w.golden_loads.clear();
  if (golden_memory->empty()) return;
  for (unsigned l = 0; l < kMaxLanes; ++l) {
    uint64_t v = 0;
    if (in.mask.test(l) && golden_memory->peek(in.addr[l], in.size, &v))
      w.golden_loads.emplace_back(uint8_t(l), v);
  }
}

void SmModule::answer_golden_loads(WarpSlot& w) {
  if (w.golden_loads.empty()) return;
  for (const auto& [lane, v] : w.golden_loads)
    w.warp->results()[lane] = v;
  *lab_golden_loads_ += w.golden_loads.size();
  w.golden_loads.clear();
}

void SmModule::check_bounds(uint32_t slot, const WarpInstr& in) const {
  for (unsigned l = 0; l < kMaxLanes; ++l) {
    if (!in.mask.test(l)) continue;
    if (!mem_->contains(in.addr[l], in.size)) {
      std::ostringstream os;
      os << "lane " << l << " accesses 0x" << std::hex << in.addr[l] << std::dec << " ("
         << int(in.size) << " bytes), outside every device allocation";
      fail(slot, os.str());
    }
  }
}

void SmModule::issue_global(uint32_t slot, const WarpInstr& in, Cycle now) {
  WarpSlot& w = warps_[slot];
  check_bounds(slot, in);
  if (in.kind == WarpInstr::Kind::Load)
    ++loads_;
  else if (in.kind == WarpInstr::Kind::Store)
    ++stores_;
  else if (in.kind == WarpInstr::Kind::Atomic)
    ++atomics_;
  else
    ++reds_;
  ++*by_scope_[size_t(in.scope)];
  ++*by_order_[size_t(in.order)];
  std::span<const LineRequest> reqs;
  try {
    reqs = coalescer_.coalesce(in);
  } catch (const std::exception& e) {
    fail(slot, e.what());
  }
  if (golden_memory && in.kind == WarpInstr::Kind::Store) store_golden(in);
  if (golden_memory && in.kind == WarpInstr::Kind::Load) load_golden(w, in);
  const bool rmw = in.kind == WarpInstr::Kind::Atomic || in.kind == WarpInstr::Kind::Red;
  if (rmw && atomic_profile) atomic_profile->record(in);
  global_requests_ += reqs.size();
  if (rmw) atomic_requests_ += reqs.size();
  // A store or red the warp does not wait for (sm_ordering.cpp).
  const bool posted = !waits_for(in.kind);
  if (posted) write_requests_ += reqs.size();
  const bool lt = ctx_.mode == TimingMode::LT;
  Cycle done = now + 1;
  for (const LineRequest& r : reqs) {
    // The cycle the request leaves the LD/ST unit: one line request per
    // cycle, and (lt) a non-blocking write needs a free write slot.
    Cycle leave = std::max(lsu_free_, now);
    if (posted && lt) leave = take_write_slot(leave);
    if (rmw && lab_ && lab_->eligible(r.access)) {
      if (lab_at_) { // AT: the LAB pipeline takes it (sm_lab.cpp)
        lab_enqueue(slot, r, in, posted);
        continue;
      }
      // Performed in the SM's LAB: the atomic completes at LAB latency; what
      // the LAB pushes out goes to L2 off the critical path. The LAB is a
      // pipeline taking one request per cycle from the LD/ST unit (authors'
      // code: a shift register whose tail slot must be free).
      lsu_free_ = leave + 1;
      const Cycle enter = leave;
      LabOutcome out = lab_->access(r.access, r.line);
      if (golden_memory)
        lab_golden(r, in, w.warp->results());
      else if (r.access.kind == AccessKind::Atomic) // GpuModule sets it in paper_compatible
        throw SimError(std::string(name()) +
                       ": LAB atomic with a return value but no golden memory");
      for (const LabEviction& ev : out.evictions)
        send_lab_packet(ev, enter, ctx_.timed());
      if (out.forward) send_lab_packet(*out.forward, enter, ctx_.timed());
      const Cycle entered = enter + ctx_.platform.lab.latency;
      if (!posted)
        done = std::max(done, entered);
      else if (lt)
        note_write_lt(w, entered);
      continue;
    }
    GpuPayload* p = ctx_.pool.allocate();
    GpuAccess a = r.access;
    a.src_sm = id;
    a.src_warp = uint16_t(slot);
    a.src_cta = ctas_[w.cta_slot].cta;
    a.txn_id = ctx_.pool.next_txn_id();
    const bool write = a.kind == AccessKind::Store;
    p->setup(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.line,
             coalescer_.line_bytes(), a);
    if (write) {
      std::copy_n(r.data.data(), coalescer_.line_bytes(), p->data());
      std::copy_n(r.byte_enable.data(), coalescer_.line_bytes(), p->byte_enable());
      p->enable_bytes(coalescer_.line_bytes());
    }
    lsu_free_ = leave + 1;
    if (ctx_.at()) {
      in_flight_.emplace(p, InFlight{slot, r.lane_mask, r.size, posted});
      if (!posted) {
        ++w.outstanding;
        lsu_port_.send(*p);
      } else if (lsu_open()) {
        note_write(w, 1);
        lsu_port_.send(*p);
      } else { // no write slot: the LD/ST unit holds it (and everything after it)
        ++w.writes;
        ++write_slot_waits_;
        write_backlog_.push_back(p);
      }
      continue;
    }
    sc_time d = ctx_.timed() ? clk_.until(leave) : SC_ZERO_TIME;
    const sc_time base = sc_time_stamp();
    lsu_port_.b_transport(*p, d);
    if (ctx_.timed()) {
      const Cycle acked = clk_.at_or_after(base + d);
      if (!posted)
        done = std::max(done, acked);
      else if (lt)
        note_write_lt(w, acked);
    }
    if (in.kind == WarpInstr::Kind::Load)
      coalescer_.scatter_load(in, r, p->data(), w.warp->results());
    else if (in.kind == WarpInstr::Kind::Atomic)
      Coalescer::scatter_atomic(p->access(), w.warp->results());
    p->release();
  }
  // Blocking modes have every answer by now; an instruction with no active
  // lane sends nothing and completes at once in every mode.
  if (!ctx_.at() || w.outstanding == 0) {
    answer_golden_loads(w);
    w.ready_at = ctx_.timed() ? done : now;
    advance(slot);
  }
}

void SmModule::on_lsu_response(Payload& t) {
  auto it = in_flight_.find(&t);
  if (it == in_flight_.end() && lab_ack(t)) return; // a LAB packet's reply: dropped, acked
  sc_assert(it != in_flight_.end());
  const uint32_t slot = it->second.slot;
  if (slot == kNoWarp) { // the kernel end's fence (sm_ordering.cpp)
    in_flight_.erase(it);
    static_cast<GpuPayload&>(t).release();
    kernel_end_pending_ = false;
    kernel_end_done_.notify(SC_ZERO_TIME);
    return;
  }
  if (it->second.write) { // an acknowledgement the warp did not wait for
    in_flight_.erase(it);
    static_cast<GpuPayload&>(t).release();
    writes_acked(slot, 1);
    return;
  }
  WarpSlot& w = warps_[slot];
  const WarpInstr& in = *w.warp->pending();
  auto& p = static_cast<GpuPayload&>(t);
  if (in.kind == WarpInstr::Kind::Load) {
    LineRequest r; // only the fields scatter_load reads
    r.line = p.get_address();
    r.lane_mask = it->second.lane_mask;
    r.size = it->second.size;
    coalescer_.scatter_load(in, r, p.data(), w.warp->results());
  } else if (in.kind == WarpInstr::Kind::Atomic)
    Coalescer::scatter_atomic(p.access(), w.warp->results());
  in_flight_.erase(it);
  p.release();
  if (--w.outstanding == 0) {
    answer_golden_loads(w);
    w.ready_at = std::max(w.ready_at, clk_.now() + 1); // a fence may add its latency
    advance(slot);
    response_.notify(SC_ZERO_TIME);
  }
}

void SmModule::issue_shared(uint32_t slot, const WarpInstr& in, Cycle now) {
  WarpSlot& w = warps_[slot];
  ++shared_ops_;
  std::array<SmemLane, kMaxLanes> lanes{};
  const uint32_t base = ctas_[w.cta_slot].smem_base;
  for (unsigned l = 0; l < kMaxLanes; ++l) {
    if (!in.mask.test(l)) continue;
    if (in.addr[l] + in.size > kernel_->shared_bytes) {
      std::ostringstream os;
      os << "lane " << l << " accesses shared offset " << in.addr[l] << " beyond the CTA's "
         << kernel_->shared_bytes << " bytes of shared memory";
      fail(slot, os.str());
    }
    lanes[l] = SmemLane{true, uint32_t(base + in.addr[l]), in.size};
  }
  Lanes<uint64_t>& res = w.warp->results();
  Cycle c = 0;
  try {
    if (in.kind == WarpInstr::Kind::SharedLoad)
      c = smem_.load(lanes, res.array());
    else if (in.kind == WarpInstr::Kind::SharedStore)
      c = smem_.store(lanes, in.operand.array());
    else
      c = smem_.atomic(lanes, in.op, in.type, in.operand.array(), in.compare.array(), res.array());
  } catch (const std::exception& e) {
    fail(slot, e.what());
  }
  w.ready_at = now + (ctx_.timed() ? c : 0);
  advance(slot);
}

} // namespace tlmgpu
