// The LAB stage: construction, what every timing mode shares (golden memory,
// packets, which fences drain), and the blocking path of functional and lt.
// The at path is in lab_at_module.cpp. See lab_module.hpp for the picture.
#include "models/lab/lab_module.hpp"

#include "tlmgpu/sim/trace.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/partial_update.hpp"

#include <algorithm>

using namespace sc_core;

namespace tlmgpu {

void LabGpuState::drained() {
  if (++kernel_end_drained < stages.size()) return;
  if (golden) golden->clear(); // the next kernel reads every word afresh
  kernel_end_arrived = kernel_end_drained = 0;
}

LabModule::LabModule(sc_module_name n, const StageContext& c, const LabSpec& spec)
    : PathStage(n), ctx_(c.ctx), spec_(spec), sm_(c.sm), clk_(c.sm_clock_mhz),
      stats_(c.sm_stats, basename()), core_(spec_, stats_),
      gpu_(c.ctx.shared<LabGpuState>("lab", [] { return std::make_unique<LabGpuState>(); })),
      up_("up", 1u << 20,
          TargetPort::Hooks{[this](Payload& t, sc_time& d) { b_transport(t, d); },
                            [this](Payload& t) { return down_.debug(t); }, [this] { at_take(); }}),
      down_("down", 1u << 20, [this](Payload& t) { at_response(t); }),
      packets_(stats_.counter("packets", "requests",
                              "partial-update reds sent to L2 (evictions, flushes, forwards)")),
      early_flushes_(stats_.counter(
          "flushes_before_kernel_end", "flushes",
          "kernel-end flushes this SM made when it ran out of CTAs while other SMs still ran")),
      fence_early_(spec_.inject_fault == "fence_before_drain"), inject_(spec_.inject_queue) {
  for (const LabModule* other : gpu_.stages)
    if (other->sm_ == sm_) throw ConfigError("sm.stages lists 'lab' twice (one LAB per SM)");
  gpu_.stages.push_back(this);
  if (!core_.strict()) { // declared only here, so strict runs keep their stats.json
    golden_returns_ = &stats_.counter(
        "golden_returns", "lanes",
        "value-returning LAB lanes answered from the golden memory (paper_compatible)");
    golden_loads_ = &stats_.counter("golden_loads", "words",
                                    "8-byte words of load replies answered from the golden "
                                    "memory: LAB-buffered updates touched them (paper_compatible)");
    // A word's first golden value in a kernel is the coherent one (L2 over
    // DRAM, through this stage's path: the L1 passes debug reads on).
    if (!gpu_.golden)
      gpu_.golden = std::make_unique<GoldenMemory>([this](Addr a, uint8_t* dst, size_t len) {
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(a);
        t.set_data_ptr(dst);
        t.set_data_length(unsigned(len));
        t.set_streaming_width(unsigned(len));
        down_.debug(t);
      });
  }
  if (ctx_.at()) {
    icnt_fail_ = &stats_.counter("icnt_fail", "cycles",
                                 "AT: cycles the LAB's head request stalled because it would send "
                                 "a packet and the injection queue (lab.inject_queue) was full");
    flushes_ = &stats_.counter("flushes", "flushes",
                               "AT: flushes that sent packets (kernel end, fences, barriers)");
    flush_packets_ = &stats_.counter("flush_packets", "requests", "AT: packets sent by flushes");
    flush_cycles_ = &stats_.counter(
        "flush_cycles", "cycles",
        "AT: per flush, cycles from the flush to the reply of the last packet queued before it "
        "(summed over flushes)");
  }
}

// Which ordering points publish the LAB: device/system fences and releases,
// the kernel end, and CTA barriers when lab.flush_on_barrier.
bool LabModule::drains(const GpuAccess& f) const {
  if (f.fence == FenceKind::KernelEnd || f.scope != Scope::Cta) return true;
  return f.fence == FenceKind::Barrier && spec_.flush_on_barrier;
}

GpuPayload* LabModule::packet(const LabEviction& ev) {
  GpuPayload* p = ctx_.pool.allocate();
  GpuAccess a = partial_update_access(ev);
  a.src_sm = sm_;
  a.txn_id = ctx_.pool.next_txn_id();
  p->setup(tlm::TLM_READ_COMMAND, ev.line, spec_.line_bytes, a);
  ++packets_;
  return p;
}

// paper_compatible: every LAB-buffered lane also updates the golden memory in
// arrival (= issue) order, and a value-returning lane gets its golden old
// value: what the authors' GPGPU-Sim returns, since it performs every atomic
// functionally at issue (seed-000 pitfall 4). The SM scatters the lanes'
// results from the payload when the LAB answers.
void LabModule::golden_rmw(GpuAccess& a, Addr line) {
  if (!gpu_.golden) {
    if (a.kind == AccessKind::Atomic)
      throw SimError(std::string(name()) + ": LAB atomic with a return value but no golden memory");
    return;
  }
  gpu_.golden->perform(a, line);
  if (a.kind == AccessKind::Atomic) *golden_returns_ += a.lanes.size();
}

// A plain store keeps the golden words it overwrites current. Cheap: nothing
// to do while no LAB atomic touched memory in this kernel.
void LabModule::golden_store(Payload& t) {
  if (!gpu_.golden || gpu_.golden->empty()) return;
  const uint8_t* be = t.get_byte_enable_ptr();
  const uint8_t* data = t.get_data_ptr();
  const unsigned n = t.get_data_length();
  for (unsigned i = 0; i < n;) {
    if (be && !be[i]) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j < n && (!be || be[j]))
      ++j;
    gpu_.golden->store(t.get_address() + i, data + i, j - i);
    i = j;
  }
}

// paper_compatible: a load of words the golden memory tracks sees the golden
// values as of issue (the authors' GPGPU-Sim performs every access at issue;
// memory below still lacks the partial values the LABs buffer). Taken now,
// laid over the reply's bytes when it comes back.
bool LabModule::golden_load(Payload& t, Tracked& out) {
  if (!gpu_.golden || gpu_.golden->empty()) return false;
  const size_t words = gpu_.golden->tracked(t.get_address(), t.get_data_length(), out);
  *golden_loads_ += words;
  return words > 0;
}

void LabModule::overlay(Payload& t, const Tracked& bytes) {
  for (const auto& [off, v] : bytes)
    t.get_data_ptr()[off] = v;
}

void LabModule::kernel_end_arrives() {
  // Not the last SM to end: others still run (flushes_before_kernel_end).
  if (++gpu_.kernel_end_arrived < gpu_.stages.size() && !core_.empty()) ++early_flushes_;
}

// ---- functional and lt: the blocking path ---------------------------------

// A packet leaves at offset `d` and is off the critical path; returns when
// L2 has it.
sc_time LabModule::lt_send(const LabEviction& ev, const sc_time& d) {
  GpuPayload* p = packet(ev);
  sc_time dd = d;
  down_.b_transport(*p, dd);
  p->release();
  lt_packets_landed_ = std::max(lt_packets_landed_, sc_time_stamp() + dd);
  return dd;
}

void LabModule::b_transport(Payload& t, sc_time& d) {
  GpuAccess& a = access_of(t);
  if (a.kind == AccessKind::Fence) return lt_fence(t, d);
  if (absorbs(t, a)) {
    // Performed in the LAB: the atomic completes at LAB latency; what the
    // LAB pushes out goes to L2 off the critical path. The pipeline takes
    // one request per cycle (the LD/ST unit sends one per cycle).
    golden_rmw(a, t.get_address());
    LabOutcome out = core_.access(a, t.get_address());
    for (const LabEviction& ev : out.evictions)
      lt_send(ev, d);
    if (out.forward) lt_send(*out.forward, d);
    if (ctx_.timed()) d += clk_.cycles(spec_.latency);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (a.kind == AccessKind::Store) golden_store(t);
  Tracked golden;
  const bool seen = a.kind == AccessKind::Load && golden_load(t, golden);
  down_.b_transport(t, d);
  if (seen) overlay(t, golden);
}

// An ordering point: flush, and pass it on once every packet sent so far
// reached L2 (in lt they are acknowledged when b_transport returns). ANBF's kernel-end
// flush takes no time: the release goes on at once. Its packets still leave at
// the SM's own time `d`: sent at the quantum's start (sc_time_stamp()), up to a
// quantum in the past, they took the slots of SMs still running and made ANBF
// run slower than LAB until its kernel end (histogram-shared lt: 8,576 cycles
// against 8,309), where at runs both alike.
void LabModule::lt_fence(Payload& t, sc_time& d) {
  GpuAccess& a = access_of(t);
  if (!drains(a)) return down_.b_transport(t, d);
  const bool kernel_end = a.fence == FenceKind::KernelEnd;
  if (kernel_end) kernel_end_arrives();
  const bool free = kernel_end && !core_.flush_costs_time();
  // Mutation: the ordering point goes on first (in lt its answer then does
  // not wait for the flush; the data still lands within this call).
  if (fence_early_) down_.b_transport(t, d);
  sc_time done = d;
  const sc_time begin = sc_time_stamp() + d;
  for (const LabEviction& ev : core_.flush()) {
    const sc_time landed = lt_send(ev, d);
    if (!free) done = std::max(done, landed);
  }
  // ... and for the packets sent before it (forwarded atomics, evictions).
  if (!free && lt_packets_landed_ > sc_time_stamp())
    done = std::max(done, lt_packets_landed_ - sc_time_stamp());
  if (done > d) trace_flush(begin, sc_time_stamp() + done);
  // Every ordering point leaves the LAB empty; checked on every run, so any
  // LAB test that passes also shows it.
  if (!core_.empty()) throw SimError(std::string(name()) + ": LAB not empty after its flush");
  if (ctx_.timed()) d = done;
  if (kernel_end) gpu_.drained();
  if (!fence_early_) down_.b_transport(t, d);
}

// A flush burst on this LAB's trace track (off: one null test).
void LabModule::trace_flush(const sc_time& start, const sc_time& end) {
  TraceWriter* tr = ctx_.run.trace;
  if (!tr) return;
  if (!trace_track_) trace_track_ = tr->track(ctx_.device, std::string(name()));
  tr->span(ctx_.device, trace_track_, "lab flush", start, end);
}

} // namespace tlmgpu
