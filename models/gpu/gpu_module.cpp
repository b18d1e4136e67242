#include "models/gpu/gpu_module.hpp"

#include "models/gpu/gpu_blocks.hpp"
#include "models/sm/occupancy.hpp"
#include "models/sm/sram_split.hpp"
#include "tlmgpu/sim/trace.hpp"
#include "tlmgpu/sim/wait_report.hpp"
#include "tlmgpu/sim/watch.hpp"

#include <chrono>
#include <cstdio>
#include <unistd.h>

using namespace sc_core;

namespace tlmgpu {

GpuModule::GpuModule(sc_module_name n, SimContext& ctx)
    : sc_module(n), stats(ctx.stats, basename()), ctx_(ctx) {
  const PlatformSpec& p = ctx.platform;
  register_gpu_blocks();
  built = build_topology(ctx, stats);
  sms = built->of_type<SmModule>("sm");
  l2 = built->of_type<L2Module>("l2");
  const std::string origin = p.topology.origin.empty() ? "" : p.topology.origin + ": ";
  if (sms.empty() || sms.size() > 65535)
    throw ConfigError(origin + "topology: needs 1 to 65535 blocks of type sm, has " +
                      std::to_string(sms.size()));
  if (l2.size() != ctx.address_map.slices())
    throw ConfigError(origin + "topology: has " + std::to_string(l2.size()) +
                      " blocks of type l2, the address map " +
                      std::to_string(ctx.address_map.slices()) +
                      " slices (dram.channels * l2.sub_partitions)");
  xbar_ = built->of_type<XbarModule>("xbar").empty() ? nullptr
                                                     : built->of_type<XbarModule>("xbar").front();
  // Device windows are addressable (not memory): kernels may use them.
  const AddressMapSpec& am = p.address_map;
  for (uint32_t k = 0; k < am.device_windows; ++k)
    device_memory.map(Addr(am.device_base) + Addr(k) * am.device_window_bytes,
                      am.device_window_bytes, "device window " + std::to_string(k));
  for (size_t i = 0; i < sms.size(); ++i)
    if (sms[i]->id != i)
      throw ConfigError(origin + "topology: SM ids must run 0.." + std::to_string(sms.size() - 1) +
                        " in build order (one block of type sm)");
  if (p.sim.atomic_profile)
    atomic_profile = std::make_unique<AtomicProfile>(stats, p.l2.line_bytes);
  for (auto& sm : sms) {
    sm->on_cta_done = [this](uint16_t id, Cycle at) { cta_done(id, at); };
    if (atomic_profile) sm->memory_probes.push_back(atomic_profile.get());
  }
  choose_functional_memory();
  if (ctx.jitter.cta_dispatch()) cta_jitter_ = ctx.jitter_stream(name(), "cta_order");
  kernel_cycles_ = &stats.counter("kernel_cycles", "cycles",
                                  "core cycles from launch to the last CTA's retirement");
  kernels_ = &stats.counter("kernels", "kernels", "kernels completed");
  // Checked four times per window, so a stall is found within 1.25 windows.
  if (p.sim.watchdog_cycles > 0)
    add_sim_check(this, Clock(p.sm.clock_mhz).cycles(std::max(1u, p.sim.watchdog_cycles / 4)),
                  [this] { watchdog_check(); });
}

GpuModule::~GpuModule() {
  remove_sim_check(this);
}

// Functional mode: SMs perform global accesses straight on the memory image
// when every block and every SM's path would answer them as the image does
// (SmModule::use_direct_memory); otherwise through the hierarchy.
void GpuModule::choose_functional_memory() {
  const std::string& want = ctx_.platform.sim.functional_memory;
  if (ctx_.mode != TimingMode::Functional || want == "hierarchy") return;
  std::string why = built->first_non_neutral();
  if (!why.empty()) why = "block " + why + " is not neutral in functional mode";
  for (SmModule* sm : sms)
    if (why.empty() && !sm->plain_path().empty())
      why = std::string(sm->basename()) + ": " + sm->plain_path();
  if (!why.empty()) {
    if (want == "direct")
      throw ConfigError("sim.functional_memory = direct, but " + why + " (use auto or hierarchy)");
    return;
  }
  for (SmModule* sm : sms)
    sm->use_direct_memory(ctx_.memory);
}

void GpuModule::launch(KernelLaunch k) {
  if (running_) synchronize(); // one stream: kernels run in launch order
  const PlatformSpec& p = ctx_.platform;
  const KernelShape shape{uint32_t(k.block.count()), k.regs_per_thread, k.shared_bytes};
  OccupancyResult occ;
  try {
    if (k.grid.count() == 0) throw std::invalid_argument("empty grid (0 CTAs)");
    occ = occupancy(p.sm, shape, p.shared_mem.bytes); // checks launchability, names the limit
  } catch (const std::invalid_argument& e) {
    throw SimError("launch of kernel '" + k.name + "' refused: " + e.what());
  }
  // The unified SRAM is re-split per launch (Volta adaptive carve-out and
  // what the path's stages claim); every L1 is empty here, the previous
  // kernel end dropped it.
  try {
    const SramSplit split = sram_split(p.l1, sms.front()->sram_claim(),
                                       occ.ctas_per_sm * k.shared_bytes, p.sm.unified_sram_bytes);
    if (split.l1_ways == 0 && p.l1.protocol_needs_l1())
      throw ConfigError("l1.atomic_mode = " + p.l1.atomic_mode +
                        " needs an L1, and the SRAM split leaves none for this kernel");
    for (auto& sm : sms)
      sm->l1.core().set_ways(split.l1_ways);
  } catch (const ConfigError& e) {
    throw SimError("launch of kernel '" + k.name + "' refused: " + e.what());
  }
  kernel_ = std::move(k);
  for (InstrProbe* probe : probes_)
    probe->kernel_begin(kernel_.name);
  dispatcher_ = std::make_unique<CtaDispatcher>(
      uint32_t(kernel_.grid.count()), uint32_t(sms.size()), occ.ctas_per_sm,
      p.sm.cta_placement == "deterministic", &cta_jitter_, p.sm.cta_groups);
  for (auto& sm : sms)
    sm->begin_kernel(kernel_, device_memory, occ.ctas_per_sm, uint32_t(sms.size()));
  running_ = true;
  kernel_start_ = sc_core::sc_time_stamp();
  last_retire_ = 0;
  released_ = 0;
  dispatch();
}

void GpuModule::dispatch() {
  while (auto next = dispatcher_->next())
    sms[next->second]->start_cta(next->first);
}

// Progress for long runs, only on a terminal and only from wall-clock time:
// nothing here touches simulation state, so stats stay identical either way.
void GpuModule::progress(bool final) {
  static const bool tty = isatty(2);
  if (!tty) return;
  using clock = std::chrono::steady_clock;
  static clock::time_point last = clock::now();
  if (final && !progress_shown_) return;
  if (!final && clock::now() - last < std::chrono::milliseconds(500)) return;
  progress_shown_ = !final;
  last = clock::now();
  const Clock core(ctx_.platform.sm.clock_mhz);
  std::fprintf(stderr, "\r[tlmgpu] kernel %s: %u/%u CTAs, %llu cycles%s", kernel_.name.c_str(),
               dispatcher_->dispatched(), dispatcher_->num_ctas(),
               (unsigned long long)(core.at(sc_core::sc_time_stamp()) - core.at(kernel_start_)),
               final ? "\n" : "   ");
}

void GpuModule::cta_done(uint16_t sm, Cycle at) {
  last_retire_ = std::max(last_retire_, at);
  dispatcher_->retire(sm);
  if ((++ctas_retired_ & 63) == 0) progress(false);
  dispatch();
  // Per-SM kernel end: once every CTA is placed, an SM with none left sends
  // its kernel-end release down its memory path now, so what its stages and
  // L1 drain overlaps the other SMs' work (GPGPU-Sim flushes a cluster's L1
  // once it has no CTA). In lt it leaves at the retiring SM's local time;
  // the kernel end waits for its answer.
  if (dispatcher_->dispatched() == dispatcher_->num_ctas())
    for (auto& s : sms)
      if (!s->busy()) released_ = std::max(released_, s->kernel_end_release(at));
  if (dispatcher_->all_done()) kernel_done_.notify(sc_core::SC_ZERO_TIME);
}

std::string GpuModule::waits() const {
  std::string out;
  uint32_t shown = 0, busy = 0;
  for (const SmModule* sm : sms) {
    if (!sm->busy()) continue;
    if (++busy <= 4) out += "\n  " + sm->waits(), ++shown;
  }
  if (busy > shown) out += "\n  ... and " + std::to_string(busy - shown) + " more busy SMs";
  if (!busy) out = " (no SM runs a CTA)";
  return out + WaitReports::of(ctx_).report() +
         "\n  ports holding requests: " + port_report(*this, 8);
}

void GpuModule::synchronize() {
  if (!running_) return;
  if (!dispatcher_->all_done()) sc_core::wait(kernel_done_);
  // lt: the last CTA retired at its SM's local time, up to a quantum ahead
  // of the kernel's; the kernel ends then, not when the host notices.
  const Clock core_clk(ctx_.platform.sm.clock_mhz);
  if (ctx_.timed() && last_retire_ > core_clk.now()) sc_core::wait(core_clk.until(last_retire_));
  progress(true);
  // Kernel end is a release/acquire point: a system-scope release travels
  // down every SM's memory path (most SMs sent theirs when they ran out of
  // CTAs, cta_done); each stage drains what it buffers and the L1 writes
  // back, releases and drops its copies (models/l1/l1_fence_module.cpp).
  // The kernel ends when every SM's release is answered.
  for (auto& sm : sms)
    released_ = std::max(released_, sm->kernel_end_release());
  for (auto& sm : sms)
    while (sm->kernel_end_pending())
      sc_core::wait(sm->kernel_end_event());
  for (const SimContext::KernelEndWait& w : ctx_.kernel_end_waits)
    while (w.busy())
      sc_core::wait(*w.changed);
  if (ctx_.timed() && released_ > core_clk.now()) sc_core::wait(core_clk.until(released_));
  const Clock core(ctx_.platform.sm.clock_mhz);
  const uint64_t cycles = core.at(sc_core::sc_time_stamp()) - core.at(kernel_start_);
  *kernel_cycles_ += cycles;
  ++*kernels_;
  ++kernels_run_;
  ctx_.end_kernel(kernel_.name, cycles);
  running_ = false; // after the kernel-end waits, which the watchdog watches too
  if (TraceWriter* tr = ctx_.run.trace)
    tr->span(ctx_.device, tr->track(ctx_.device, "kernels"), kernel_.name, kernel_start_,
             sc_core::sc_time_stamp(), {{"cycles", cycles}, {"kernel", kernels_run_ - 1}});
  if (atomic_profile) atomic_profile->end_kernel(); // unique/reuse are per kernel
}

// The host path is untimed and goes straight to the owning slice, which
// overlays its cached (possibly dirty) bytes on DRAM's.
void GpuModule::debug(tlm::tlm_command cmd, Addr a, uint8_t* p, size_t n) {
  const uint32_t line = ctx_.platform.l2.line_bytes;
  while (n > 0) {
    const size_t chunk = std::min<size_t>(n, line - (a % line));
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(a);
    t.set_data_ptr(p);
    t.set_data_length(unsigned(chunk));
    t.set_streaming_width(unsigned(chunk));
    if (ctx_.address_map.device_of(a) >= 0 && xbar_) // a device window: through the crossbar
      xbar_->debug_access(t);
    else
      l2[ctx_.address_map.slice_of(a)]->debug(t);
    a += chunk, p += chunk, n -= chunk;
  }
}

void GpuModule::debug_read(Addr a, uint8_t* dst, size_t n) {
  debug(tlm::TLM_READ_COMMAND, a, dst, n);
}
void GpuModule::debug_write(Addr a, const uint8_t* src, size_t n) {
  debug(tlm::TLM_WRITE_COMMAND, a, const_cast<uint8_t*>(src), n);
}

Cycle GpuModule::flush_l1s() {
  Cycle done = 0;
  for (auto& sm : sms)
    done = std::max(done, sm->l1.flush_and_invalidate());
  return done;
}

void GpuModule::attach_probe(InstrProbe& p) {
  probes_.push_back(&p);
  for (SmModule* sm : sms)
    sm->issue_probes.push_back(&p);
}

void GpuModule::attach_trace(TraceWriter& tr) {
  tr.process(ctx_.device,
             "device_" + std::to_string(ctx_.device) + " (" + ctx_.platform.name + ")");
  tr.track(ctx_.device, "kernels");
  for (SmModule* sm : sms)
    sm->issue_probes.push_back(
        tr.sm_probe(ctx_.device, sm->basename(), ctx_.platform.sm.clock_mhz));
  attach_port_probes([&](TargetPort& p) { return tr.port_probe(ctx_.device, p.name()); }, this);
}

} // namespace tlmgpu
