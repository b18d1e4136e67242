// The SM's LD/ST unit: global loads/stores/atomics through the coalescer
// into the memory path (its stages, then the L1), shared memory, bounds
// checks. Same class as sm_module.cpp; split only to keep files small.
#include "models/sm/sm_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <algorithm>
#include <bit>
#include <sstream>

using namespace sc_core;

namespace tlmgpu {

void SmModule::check_bounds(uint32_t slot, const WarpInstr& in) const {
  // Lanes usually fall in one allocation: if the span from the lowest to the
  // highest lane's access lies in one, every lane does (one map lookup, not
  // 32); otherwise each lane is looked up, and a stray one named.
  Addr lo = ~Addr{0}, hi = 0;
  const uint64_t bits = in.mask.bits();
  if ((bits & (bits + 1)) == 0) {
    // Lanes [0, n), the usual case: a plain loop the compiler vectorizes
    // (the bit walk below was 6 % of the functional histogram).
    const unsigned n = unsigned(std::popcount(bits));
    for (unsigned l = 0; l < n; ++l) {
      lo = std::min(lo, in.addr[l]);
      hi = std::max(hi, in.addr[l]);
    }
  } else {
    in.mask.for_each([&](unsigned l) {
      lo = std::min(lo, in.addr[l]);
      hi = std::max(hi, in.addr[l]);
    });
  }
  if (lo <= hi && hi + in.size > hi && mem_->contains(lo, hi + in.size - lo)) return;
  in.mask.for_each([&](unsigned l) {
    if (!mem_->contains(in.addr[l], in.size)) {
      std::ostringstream os;
      os << "lane " << l << " accesses 0x" << std::hex << in.addr[l] << std::dec << " ("
         << int(in.size) << " bytes), outside every device allocation";
      fail(slot, os.str());
    }
  });
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
  for (InstrProbe* p : memory_probes)
    p->memory(id, in);
  if (direct_) {
    try {
      coalescer_.check_lanes(in); // the same errors as the path's
    } catch (const std::exception& e) {
      fail(slot, e.what());
    }
    if (issue_direct(slot, in)) {
      w.ready_at = now;
      advance(slot);
      return;
    }
  }
  std::span<const LineRequest> reqs;
  try {
    reqs = coalescer_.coalesce(in);
  } catch (const std::exception& e) {
    fail(slot, e.what());
  }
  const bool rmw = in.kind == WarpInstr::Kind::Atomic || in.kind == WarpInstr::Kind::Red;
  global_requests_ += reqs.size();
  if (rmw) atomic_requests_ += reqs.size();
  // A store or red the warp does not wait for (sm_ordering_module.cpp).
  const bool posted = !waits_for(in.kind);
  if (posted) write_requests_ += reqs.size();
  const bool lt = ctx_.mode == TimingMode::LT;
  Cycle done = now + 1;
  for (const LineRequest& r : reqs) {
    // The cycle the request leaves the LD/ST unit: one line request per
    // cycle, and (lt) a non-blocking write needs a free write slot.
    Cycle leave = std::max(lsu_free_, now);
    if (posted && lt) leave = take_write_slot(leave);
    GpuPayload* p = ctx_.pool.allocate();
    const bool write = r.access.kind == AccessKind::Store;
    // One copy, into the payload (the request's lanes only); the ids go on
    // the copy, not on a local the payload would copy again.
    p->setup(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.line,
             coalescer_.line_bytes(), r.access);
    GpuAccess& a = p->access();
    a.src_sm = id;
    a.src_warp = uint16_t(slot);
    a.src_cta = ctas_[w.cta_slot].cta;
    a.txn_id = ctx_.pool.next_txn_id();
    if (write) {
      std::copy_n(r.data.data(), coalescer_.line_bytes(), p->data());
      std::copy_n(r.byte_enable.data(), coalescer_.line_bytes(), p->byte_enable());
      p->enable_bytes(coalescer_.line_bytes());
    }
    lsu_free_ = leave + 1;
    if (ctx_.at()) {
      mark_in_flight(*p, InFlight{slot, r.lane_mask, r.size, posted});
      if (!posted) {
        ++w.outstanding;
        refresh(slot);
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
    w.ready_at = ctx_.timed() ? done : now;
    advance(slot);
  }
}

void SmModule::on_lsu_response(Payload& t) {
  auto& p = static_cast<GpuPayload&>(t);
  const InFlight f = p.initiator_state<InFlight>();
  TLMGPU_CHECK(f.live == kLive);
  p.set_initiator_state(InFlight{}); // answered: no longer live
  const uint32_t slot = f.slot;
  if (slot == kNoWarp) { // the kernel end's fence (sm_ordering_module.cpp)
    p.release();
    kernel_end_pending_ = false;
    kernel_end_done_.notify(SC_ZERO_TIME);
    return;
  }
  if (f.write) { // an acknowledgement the warp did not wait for
    p.release();
    writes_acked(slot, 1);
    return;
  }
  WarpSlot& w = warps_[slot];
  const WarpInstr& in = *w.warp->pending();
  if (f.fence) {
    // an ordering request's answer: nothing to scatter
  } else if (in.kind == WarpInstr::Kind::Load) {
    LineRequest r; // only the fields scatter_load reads
    r.line = p.get_address();
    r.lane_mask = f.lane_mask;
    r.size = f.size;
    coalescer_.scatter_load(in, r, p.data(), w.warp->results());
  } else if (in.kind == WarpInstr::Kind::Atomic)
    Coalescer::scatter_atomic(p.access(), w.warp->results());
  const bool barrier = f.barrier; // sm_ordering_module.cpp
  p.release();
  if (barrier) { // the warp arrives at the barrier now
    --w.outstanding;
    refresh(slot);
    enter_barrier(slot, clk_.now());
    wake();
    return;
  }
  --w.outstanding;
  refresh(slot);
  if (w.outstanding == 0) {
    w.ready_at = std::max(w.ready_at, clk_.now() + 1); // a fence may add its latency
    advance(slot);
    wake();
  }
}

void SmModule::issue_shared(uint32_t slot, const WarpInstr& in, Cycle now) {
  WarpSlot& w = warps_[slot];
  ++shared_ops_;
  std::array<SmemLane, kMaxLanes> lanes{};
  const uint32_t base = ctas_[w.cta_slot].smem_base;
  in.mask.for_each([&](unsigned l) {
    if (in.addr[l] + in.size > kernel_->shared_bytes) {
      std::ostringstream os;
      os << "lane " << l << " accesses shared offset " << in.addr[l] << " beyond the CTA's "
         << kernel_->shared_bytes << " bytes of shared memory";
      fail(slot, os.str());
    }
    lanes[l] = SmemLane{true, uint32_t(base + in.addr[l]), in.size};
  });
  // The warp's own width, not kMaxLanes: the bank model walks every slot, and
  // a 32-wide warp should not pay for 32 lanes it does not have.
  const std::span<const SmemLane> used(lanes.data(), w.warp->lane_count());
  Lanes<uint64_t>& res = w.warp->results();
  Cycle c = 0;
  try {
    if (in.kind == WarpInstr::Kind::SharedLoad)
      c = smem_.load(used, res.array());
    else if (in.kind == WarpInstr::Kind::SharedStore)
      c = smem_.store(used, in.operand.array());
    else
      c = smem_.atomic(used, in.op, in.type, in.operand.array(), in.compare.array(), res.array());
  } catch (const std::exception& e) {
    fail(slot, e.what());
  }
  w.ready_at = now + (ctx_.timed() ? c : 0);
  advance(slot);
}

} // namespace tlmgpu
