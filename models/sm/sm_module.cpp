#include "models/sm/sm_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <algorithm>
#include <sstream>

using namespace sc_core;

namespace tlmgpu {

SmModule::SmModule(sc_module_name n, SimContext& ctx, uint16_t id, StatGroup& parent,
                   const Parts& parts)
    : sc_module(n), id(id), stats_(parent, basename()),
      l1("l1", ctx, parts.l1, id, parts.sm.clock_mhz, stats_), ctx_(ctx), spec_(parts.sm),
      clk_(parts.sm.clock_mhz), coalescer_(ctx.net.line_bytes, ctx.net.sector_bytes),
      smem_(parts.shared_mem), sched_busy_until_(parts.sm.schedulers, 0),
      warps_(parts.sm.max_warps), ctas_(parts.sm.max_ctas),
      // sm.lsu_queue bounds the requests waiting in the port; a request
      // leaving it may let a held instruction issue, so it wakes the loop.
      lsu_port_(
          "lsu", parts.sm.lsu_queue ? parts.sm.lsu_queue : 1u << 20,
          [this](Payload& t) { on_lsu_response(t); },
          parts.sm.lsu_queue ? std::function<void()>([this] { wake(); }) : std::function<void()>()),
      warp_instructions_(stats_.counter("warp_instructions", "instructions",
                                        "warp instructions issued (compute(n) counts n)")),
      active_cycles_(
          stats_.counter("active_cycles", "cycles", "cycles with at least one resident warp")),
      global_requests_(stats_.counter("global_requests", "requests",
                                      "line requests sent to the L1 (after coalescing)")),
      atomic_requests_(stats_.counter("atomic_requests", "requests",
                                      "line requests of global atomics and reds")),
      loads_(stats_.counter("loads", "instructions", "global load warp instructions")),
      stores_(stats_.counter("stores", "instructions", "global store warp instructions")),
      atomics_(stats_.counter("atomics", "instructions",
                              "global atomic warp instructions (value returning)")),
      reds_(
          stats_.counter("reds", "instructions", "global reduction warp instructions (no return)")),
      shared_ops_(stats_.counter("shared_ops", "instructions", "shared-memory warp instructions")),
      barriers_(stats_.counter("barriers", "instructions", "barrier instructions")),
      fences_(stats_.counter("fences", "instructions", "fence instructions")),
      ctas_done_(stats_.counter("ctas", "CTAs", "CTAs completed")),
      stall_memory_(stats_.counter("stall_memory", "cycles",
                                   "no issue: every resident warp waits for memory")),
      stall_barrier_(stats_.counter("stall_barrier", "cycles",
                                    "no issue: warps wait at a barrier (none for memory)")),
      stall_scoreboard_(stats_.counter("stall_scoreboard", "cycles",
                                       "no issue: warps wait for ALU/shared-memory results")),
      stall_idle_(
          stats_.counter("stall_no_warp", "cycles", "no resident warp while the kernel runs")),
      stall_lsu_(stats_.counter("stall_lsu", "cycles",
                                "no issue: the ready warps' next global memory instruction waits "
                                "for a write slot of the LD/ST unit (AT; sm.write_slots)")),
      lt_contention_syncs_(stats_.counter(
          "lt_contention_syncs", "events",
          "LT: syncs with the kernel before the quantum's end (sim.lt_busy_quantum cycles "
          "ahead of it or sim.lt_busy_requests line requests after the last sync), because "
          "this SM's accesses waited at busy resources")),
      write_requests_(stats_.counter("write_requests", "requests",
                                     "store/red line requests the warp did not wait for "
                                     "(sm.blocking_writes)")),
      write_slot_waits_(stats_.counter("write_slot_waits", "requests",
                                       "non-blocking write requests that waited for a write "
                                       "slot (sm.write_slots) before leaving the LD/ST unit")) {
  SC_HAS_PROCESS(SmModule);
  if (ctx_.at())
    at_timer_ = std::make_unique<TimedQueue>("at_loop");
  else
    SC_THREAD(run);
  write_wait_ = spec_.blocking_writes == "all"    ? WriteWait::All
                : spec_.blocking_writes == "reds" ? WriteWait::Reds
                                                  : WriteWait::None;
  skip_write_wait_ = spec_.inject_fault == "fence_skips_writes";
  relaxed_orders_ = spec_.inject_fault == "relaxed_orders";
  if (spec_.lsu_queue)
    stall_lsu_queue_ = &stats_.counter("stall_lsu_queue", "cycles",
                                       "no issue: the ready warps' next global memory instruction "
                                       "waits for room in the LD/ST unit's queue (AT; "
                                       "sm.lsu_queue)");
  stats_.formula("max_writes_in_flight", "requests",
                 "AT: most non-blocking write requests in flight at once (run total)",
                 [this](StatView) { return double(max_writes_in_flight_); });
  stats_.formula(
      "ipc", "instructions/cycle", "warp_instructions / active_cycles",
      [this](StatView v) { return ratio(warp_instructions_.value(v), active_cycles_.value(v)); });
  stats_.formula(
      "atgr", "ratio",
      "atomic_requests / global_requests (ATGR: atomic transactions per global request)",
      [this](StatView v) { return ratio(atomic_requests_.value(v), global_requests_.value(v)); });
  mem_ops_ = std::make_unique<StatGroup>(stats_, "mem_ops");
  StatGroup* mem = mem_ops_.get();
  for (Scope s : {Scope::Cta, Scope::Device, Scope::System})
    by_scope_[size_t(s)] =
        &mem->counter(std::string("scope_") + std::string(to_string(s)), "instructions",
                      "global loads/stores/atomics/reds with this scope");
  for (MemOrder o : {MemOrder::Relaxed, MemOrder::Acquire, MemOrder::Release, MemOrder::AcqRel,
                     MemOrder::SeqCst, MemOrder::Commutative})
    by_order_[size_t(o)] =
        &mem->counter(std::string("order_") + std::string(to_string(o)), "instructions",
                      "global loads/stores/atomics/reds with this order");
  // Functional mode never stalls a warp, so a greedy run is bounded there
  // (scheduler.hpp: a spinning warp would starve the warp it waits for).
  constexpr uint32_t kFunctionalGreedyRun = 1u << 16;
  for (uint32_t i = 0; i < spec_.schedulers; ++i)
    schedulers_.push_back(make_scheduler(spec_.scheduler, ctx_.timed() ? 0 : kFunctionalGreedyRun));
  for (const StageType* t : parts.stages) {
    std::string name = t->name; // a type listed twice: probe, probe_1, ...
    for (size_t k = 1; std::any_of(stages_.begin(), stages_.end(),
                                   [&](auto& st) { return name == st->basename(); });
         ++k)
      name = t->name + "_" + std::to_string(k);
    stages_.push_back(t->make(name.c_str(), StageContext{ctx, id, stats_, spec_.clock_mhz}));
  }
  for (auto& st : stages_)
    barriers_down_path_ = barriers_down_path_ || st->orders_barriers();
  attach_gate();
  masks_.resize(spec_.max_warps, spec_.schedulers);
}

SramClaim SmModule::sram_claim() const {
  SramClaim c;
  for (auto& st : stages_) {
    const SramClaim one = st->sram_claim();
    if (one.bytes == 0) continue;
    c.bytes += one.bytes;
    c.what += (c.what.empty() ? "" : " + ") + one.what;
  }
  return c;
}

tlm::tlm_target_socket<>& SmModule::path_entry() {
  if (stages_.empty()) return l1.port.socket;
  return stages_.front()->upstream();
}

void SmModule::before_end_of_elaboration() {
  // The stage chain: LD/ST ──► stage_0 ──► ... ──► L1.
  for (size_t i = 0; i < stages_.size(); ++i)
    stages_[i]->downstream().bind(i + 1 < stages_.size() ? stages_[i + 1]->upstream()
                                                         : l1.port.socket);
  if (!external_lsu_)
    lsu_port_.socket.bind(path_entry());
  else {
    unused_lsu_ = std::make_unique<tlm_utils::simple_target_socket<SmModule>>("unused_lsu");
    lsu_port_.socket.bind(*unused_lsu_);
  }
}

void SmModule::begin_kernel(const KernelLaunch& k, const DeviceMemory& mem, uint32_t ctas_per_sm,
                            uint32_t sms) {
  kernel_ = &k;
  mem_ = &mem;
  released_ = false;
  if (gate_)
    gate_->kernel_begins(GateLaunch{
        k.grid.count(), uint32_t((k.block.count() + spec_.warp_size - 1) / spec_.warp_size),
        ctas_per_sm, sms, id});
}

void SmModule::start_cta(uint32_t cta_linear) {
  const KernelLaunch& k = *kernel_;
  uint32_t c = 0;
  while (c < ctas_.size() && ctas_[c].valid)
    ++c;
  TLMGPU_CHECK(c < ctas_.size() && "dispatcher exceeded the SM's CTA slots");
  const uint32_t warps = uint32_t((k.block.count() + spec_.warp_size - 1) / spec_.warp_size);
  CtaSlot& cta = ctas_[c];
  cta = CtaSlot{true, cta_linear, warps, warps, 0, c * k.shared_bytes};
  ++live_ctas_;
  Warp::Geometry g;
  g.grid = k.grid;
  g.block = k.block;
  g.cta = {uint32_t(cta_linear % k.grid.x), uint32_t(cta_linear / k.grid.x % k.grid.y),
           uint32_t(cta_linear / (uint64_t(k.grid.x) * k.grid.y))};
  g.warp_size = spec_.warp_size;
  g.sm = id;
  const Cycle now = clk_.now();
  for (uint32_t w = 0, slot = 0; w < warps; ++w, ++slot) {
    while (slot < warps_.size() && warps_[slot].valid)
      ++slot;
    TLMGPU_CHECK(slot < warps_.size() && "dispatcher exceeded the SM's warp slots");
    g.warp_in_cta = w;
    WarpSlot& ws = warps_[slot];
    ws = WarpSlot{};
    ws.valid = true;
    ws.warp = std::make_unique<Warp>(g);
    ws.task = k.body(*ws.warp);
    ws.cta_slot = c;
    ws.age = next_age_++;
    ws.ready_at = now;
    if (gate_) gate_->warp_started(GateWarp{slot, cta_linear, w});
    advance(slot); // run to the first instruction
  }
  if (at_timer_)
    wake(); // at: the loop is calendar steps
  else
    work_.notify(SC_ZERO_TIME);
}

[[noreturn]] void SmModule::fail(uint32_t slot, const std::string& what) const {
  const WarpSlot& w = warps_[slot];
  std::ostringstream os;
  os << "kernel '" << kernel_->name << "' on " << name() << ", CTA " << ctas_[w.cta_slot].cta
     << " warp " << w.warp->warp_in_cta() << ": " << what;
  throw SimError(os.str());
}

// Resume the coroutine: it runs host-side C++ until its next instruction (or
// the end). An exception inside the kernel becomes a SimError naming the warp.
void SmModule::advance(uint32_t slot) {
  resume(slot);
  refresh(slot); // a new pending instruction, or the warp exited or left
}

void SmModule::resume(uint32_t slot) {
  WarpSlot& w = warps_[slot];
  if (!ordered_done(w)) return; // the same instruction issues again (its next half)
  w.warp->complete();
  w.task.resume();
  if (w.task.failed()) {
    try {
      w.task.rethrow_if_failed();
    } catch (const SimError&) {
      throw;
    } catch (const std::exception& e) {
      fail(slot, e.what());
    }
  }
  if (w.task.done()) retire_warp(slot);
}

void SmModule::retire_warp(uint32_t slot) {
  WarpSlot& w = warps_[slot];
  CtaSlot& cta = ctas_[w.cta_slot];
  w.exited = true;
  refresh(slot);
  --cta.live_warps;
  if (gate_) gate_->warp_exited(gate_warp(slot));
  // Exited warps no longer count toward a barrier the others wait at.
  if (cta.live_warps > 0 && cta.at_barrier == cta.live_warps) arrive_barrier(slot, cur_cycle());
  // Its slot (and the CTA's resources) stay taken until the stores and reds
  // it did not wait for are acknowledged, as in GPGPU-Sim (hardware_done).
  // lt: the coroutine ran on past its last instruction at issue, so a last
  // access the warp waits for (a load, an atomic, a waiting red) ends at its
  // ready cycle, not now: AT's warp exits only after its response.
  if (ctx_.mode == TimingMode::LT) w.writes_done = std::max(w.writes_done, w.ready_at);
  if (writes_pending(w)) {
    ++exited_waiting_;
    return;
  }
  free_warp(slot);
}

void SmModule::free_warp(uint32_t slot) {
  WarpSlot& w = warps_[slot];
  CtaSlot& cta = ctas_[w.cta_slot];
  w.task = WarpTask{};
  w.warp.reset();
  w.valid = false;
  refresh(slot);
  if (--cta.resident_warps == 0) {
    cta.valid = false;
    --live_ctas_;
    ++ctas_done_;
    if (on_cta_done) on_cta_done(id, cur_cycle());
  }
}

void SmModule::enter_barrier(uint32_t slot, Cycle now) {
  warps_[slot].at_barrier = true;
  refresh(slot);
  ++ctas_[warps_[slot].cta_slot].at_barrier;
  arrive_barrier(slot, now);
}

void SmModule::arrive_barrier(uint32_t slot, Cycle now) {
  CtaSlot& cta = ctas_[warps_[slot].cta_slot];
  if (cta.at_barrier < cta.live_warps) return;
  // Everyone arrived: release the CTA's warps.
  cta.at_barrier = 0;
  const uint32_t c = warps_[slot].cta_slot;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    if (!warps_[s].valid || warps_[s].cta_slot != c || !warps_[s].at_barrier) continue;
    warps_[s].at_barrier = false;
    warps_[s].ready_at = ctx_.timed() ? now + 1 : now;
    advance(s); // refreshes the masks
  }
}

void SmModule::issue(uint32_t slot, Cycle now) {
  WarpSlot& w = warps_[slot];
  // A reference, not an 800-byte copy: advance() stages the next instruction
  // in its place, so no case reads `in` after calling it.
  const WarpInstr& in = *w.warp->pending();
  using K = WarpInstr::Kind;
  if (w.ordered == WarpSlot::Ordered::None) { // an ordered access counts once
    warp_instructions_ += in.kind == K::Compute ? std::max(1u, in.count) : 1;
    for (InstrProbe* p : issue_probes)
      p->issued(id, in, now);
  }
  switch (in.kind) {
  case K::Compute:
    w.ready_at = now + (ctx_.timed() ? Cycle(std::max(1u, in.count)) - 1 + spec_.alu_latency : 0);
    advance(slot);
    break;
  case K::Load:
  case K::Store:
  case K::Atomic:
  case K::Red:
    if (ordered_step(slot, now)) break;
    issue_global(slot, *w.warp->pending(), now);
    break;
  case K::SharedLoad:
  case K::SharedStore:
  case K::SharedAtomic:
    issue_shared(slot, in, now);
    break;
  case K::Barrier:
    ++barriers_;
    // A barrier that goes down the path (a stage drains at it) orders the
    // warp's earlier writes: they must have reached that stage first.
    if (barriers_down_path_ && wait_for_writes(slot, WarpSlot::AfterWrites::Barrier)) break;
    barrier(slot, ctx_.mode == TimingMode::LT ? std::max(now, w.writes_done) : now);
    break;
  case K::Fence:
    ++fences_;
    ordering_point(slot, now);
    break;
  case K::Exit:
    break;
  }
}

// One cycle of the schedulers. Returns whether anything issued.
bool SmModule::issue_cycle(Cycle now) {
#ifdef TLMGPU_CHECK_WARP_MASKS
  check_masks();
#endif
  // AT frees an exited warp's slot in writes_acked, so only lt scans here.
  if (exited_waiting_ > 0 && !ctx_.at()) retire_exited(now);
  bool any = false;
  const uint32_t n = uint32_t(schedulers_.size());
  for (uint32_t s = 0; s < n; ++s) {
    if (sched_busy_until_[s] > now) continue;
    // The policies choose among ready warps only, so only those are listed
    // (the cheap tests first: most warps wait, and pending() is a pointer
    // chase into the coroutine); with none ready there is nothing to pick.
    const auto ready = [&](uint32_t slot) -> const WarpInstr* {
      const WarpSlot& w = warps_[slot];
      if (!w.valid || w.at_barrier || w.outstanding != 0 || w.ready_at > now) return nullptr;
      const WarpInstr* p = w.warp->pending();
      if (!p) return nullptr;
      if (gate_ && gated(w, *p)) {
        const auto v = gate_->check(gate_warp(slot), *p, false);
        if (v != IssueGate::Verdict::Pass) return v == IssueGate::Verdict::Wait ? nullptr : p;
      }
      return is_global_memory(p->kind) && !lsu_open() ? nullptr : p;
    };
    std::optional<uint32_t> pick = schedulers_[s]->sticky();
    if (!pick || !ready(*pick)) {
      views_.clear();
      if (scan_by_masks()) { // ready(), for only the slots that may issue
        masks_.for_each_candidate(s, lsu_open(), [&](uint32_t slot) {
          const WarpSlot& w = warps_[slot];
          if (w.ready_at > now) return;
          if (const WarpInstr* p = w.warp->pending())
            views_.push_back(WarpView{slot, true, true, w.age, p->kind});
        });
      } else {
        for (uint32_t slot = s; slot < warps_.size(); slot += n)
          if (const WarpInstr* p = ready(slot))
            views_.push_back(WarpView{slot, true, true, warps_[slot].age, p->kind});
      }
      if (views_.empty()) continue;
      pick = schedulers_[s]->pick(views_);
    }
    if (!pick) continue;
    const WarpInstr* p = warps_[*pick].warp->pending();
    auto verdict = IssueGate::Verdict::Pass;
    if (gate_ && gated(warps_[*pick], *p)) {
      verdict = gate_->check(gate_warp(*pick), *p, true);
      if (verdict == IssueGate::Verdict::Wait) continue; // another scheduler got there first
    }
    schedulers_[s]->issued(*pick);
    if (verdict == IssueGate::Verdict::Taken) {
      take_gated(*pick, *p, now);
      any = true;
      continue;
    }
    if (p->kind == WarpInstr::Kind::Compute && ctx_.timed())
      sched_busy_until_[s] = now + std::max(1u, p->count); // n instructions, one per cycle
    issue(*pick, now);
    any = true;
  }
  return any;
}

} // namespace tlmgpu
