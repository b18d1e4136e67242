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
//
// The limit-study variants (§VI-B4, notes §3.10) relax steps 4 and "every":
// DAB-NR-OF (dab.allow_overlap) lets epoch e+1 start once every SM injected
// e's packets (step 3), before they are applied; DAB-NR-CIF
// (dab.flush_granularity = cluster) makes each cluster of dab.cluster_sms
// SMs a flush domain of its own, flushing when its SMs alone are READY.
// Epochs are numbered GPU-wide in the order they start, and a domain's
// epochs are retired (applied(e)) in order.
#pragma once

#include "models/atomic_buffer/atomic_buffer_spec.hpp"
#include "models/atomic_buffer/flush_packet.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <systemc>

#include <deque>
#include <map>
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
  // at: an SM's packets of an epoch are all out or acknowledged / a reorder
  // unit applied every packet of one. lt and functional apply inline.
  void sm_acked() { poke(); }
  void unit_applied() { poke(); }

  std::string state() const; // for deadlock reports (WaitReports)

private:
  // SMs that flush together: the whole GPU, or one cluster (NR-CIF).
  struct Domain {
    std::vector<DabModule*> sms;
    bool starting = false;     // a flush is starting or injecting: no other may start
    std::deque<uint64_t> open; // injected, not yet retired, oldest first
    bool idle = false;         // READY and empty when last evaluated
  };
  void run(); // starts the flushes that are due (each a process of its own)
  void make_domains();
  bool ready(const Domain& d) const;
  bool empty(const Domain& d) const;
  bool busy() const;    // the kernel end waits: something buffered or in flight
  void flush(size_t d); // one epoch of domain d
  bool applied_at(uint64_t e, const Domain& d) const; // at: every packet of e applied
  void retire(Domain& d); // applied(e) to its SMs for its leading finished epochs

  SimContext& ctx_;
  const AtomicBufferSpec& spec_;
  Clock clk_;
  std::vector<DabModule*> sms_;
  std::vector<DabReorderModule*> units_; // by partition
  std::vector<Domain> domains_;
  std::map<uint64_t, bool> finished_; // open epochs: every packet applied
  sc_core::sc_event poke_, changed_;
  uint64_t epoch_ = 0;
  Counter &flushes_, &flush_cycles_, &empty_rounds_;
  Counter* overlapped_ = nullptr; // NR-OF only
};

} // namespace tlmgpu
