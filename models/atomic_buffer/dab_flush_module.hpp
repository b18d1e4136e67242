// DAB's GPU-wide flush protocol (paper §IV-D; notes seed-001 §3.5.2, P1,
// P10-P14): one per GPU, shared by every SM's DAB stage and every reorder
// unit (SimContext::shared "dab"). In hardware it is a distributed
// AND-reduction of the buffers' READY bits and a broadcast; here it is a
// plain object with one SystemC thread, not a block with sockets: it holds
// no data, only who is READY and which epoch is open.
//
//   every SM READY ──(dab.flush_start_cycles)──► epoch e:
//     1. each SM drains its buffers into numbered packets (DabModule::drain)
//     2. pre-flush counts: every SM's count to every reorder unit, zeros too
//     3. each SM injects its packets (lt: b_transport now; at: its queue)
//     4. every packet applied at L2 ──► applied(e): ordering points and the
//        kernel end may go on; the next epoch may start (no overlap)
#pragma once

#include "models/atomic_buffer/atomic_buffer_spec.hpp"
#include "models/atomic_buffer/flush_packet.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <systemc>

#include <vector>

namespace tlmgpu {

class DabModule;
class DabReorderModule;

// Cuts packets so that each is one request: one op and type, at most
// kDabLanes ops, entry order kept (before number_flush_stream).
void split_for_requests(std::vector<FlushPacket>& packets);
// A flush packet as a TLM request (a red of one sector's ops, tagged) and back.
void flush_packet_to_payload(GpuPayload& p, const FlushPacket& f, uint32_t line_bytes);
FlushPacket flush_packet_of(GpuPayload& p, uint32_t partition);
// Who takes turns at the reorder units: the SMs, or the CTA groups
// (sm.cta_groups) under dab.keying = group.
uint32_t dab_sources(const PlatformSpec& p);

class DabFlushControl {
public:
  DabFlushControl(SimContext& ctx, const AtomicBufferSpec& spec, double clock_mhz);
  // The GPU's one (SimContext::shared "dab"), made by the first stage that asks.
  static DabFlushControl& of(const StageContext& c, const AtomicBufferSpec& spec) {
    return c.ctx.shared<DabFlushControl>(
        "dab", [&] { return std::make_unique<DabFlushControl>(c.ctx, spec, c.sm_clock_mhz); });
  }
  void attach(DabModule* sm_stage); // in SM order
  void attach(DabReorderModule* unit, uint32_t partition);
  // Something changed (a buffer became READY, a warp exited): re-evaluate.
  void poke() { poke_.notify(sc_core::SC_ZERO_TIME); }
  // at: an SM's packets of the open epoch are all acknowledged / a reorder
  // unit applied every packet it expects. lt and functional apply inline.
  void sm_acked() { poke_.notify(sc_core::SC_ZERO_TIME); }
  void unit_applied() { poke_.notify(sc_core::SC_ZERO_TIME); }
  uint64_t epoch() const { return epoch_; }
  bool flushing() const { return flushing_; }

private:
  void run(); // the protocol's thread
  bool all_ready() const;
  bool all_empty() const;
  bool busy() const; // the kernel end waits: something buffered or in flight
  void flush();      // one epoch

  SimContext& ctx_;
  const AtomicBufferSpec& spec_;
  Clock clk_;
  std::vector<DabModule*> sms_;
  std::vector<DabReorderModule*> units_; // by partition
  sc_core::sc_event poke_, changed_;
  uint64_t epoch_ = 0;
  bool flushing_ = false;
  Counter &flushes_, &flush_cycles_, &empty_rounds_;
};

} // namespace tlmgpu
