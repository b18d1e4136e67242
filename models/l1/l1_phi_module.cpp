// PHI in the L1 module (l1.atomic_mode = phi): eligible commutative reds are
// performed in the core's update-only lines and complete at l1.latency; the
// partial values leave as Red packets (AccessKind::Red, MemOrder::Commutative,
// one lane per touched word) through this L1's port to the crossbar, so they
// are counted like any other request. See README.md "PHI".
//
// Functional and LT: packets take the blocking path (data at L2 at once, so no
// partial update is ever in flight at an ordering point), like the LAB's.
//
// AT: packets go down the normal miss queue, behind everything this L1 sent
// before (the L2's blocking path does not note its write-backs in the AT
// PendingFillOverlay, so a blocking packet in AT can lose bytes of a line
// being refilled). They use no MSHR (nothing is fetched) but occupy the miss
// queue. PhiTracker parks every packet to a line whose red is still on its
// way (the L2 may reorder one source's requests to a line in its MSHR), and
// follows the L1's own packets (reds and, in PHI mode, write-backs) until L2
// answers: a fence waits for every packet sent before it (release_async), the
// kernel end for all (GpuModule::synchronize).
#include "models/l1/l1_module.hpp"

#include "tlmgpu/sim/line_payloads.hpp"

#include <stdexcept>
#include <string>

using namespace sc_core;

namespace tlmgpu {

Cycle L1Module::phi_send(Cycle at, bool blocking) {
  Cycle done = at;
  for (const PartialUpdatePacket& pk : core_.take_phi_packets()) {
    GpuPayload* p = ctx_.pool.allocate();
    GpuAccess a = partial_update_access(pk);
    a.src_sm = sm_;
    a.txn_id = ctx_.pool.next_txn_id();
    p->setup(tlm::TLM_READ_COMMAND, pk.line, spec_.line_bytes, a);
    if (ctx_.at() && !blocking) {
      send_tracked(*p, true);
      continue;
    }
    sc_time d = ctx_.timed() ? clk_.until(at) : SC_ZERO_TIME;
    const sc_time base = sc_time_stamp();
    down.b_transport(*p, d);
    p->release();
    if (ctx_.timed()) done = std::max(done, clk_.at_or_after(base + d));
  }
  return done;
}

void L1Module::send_tracked(GpuPayload& p, bool red) {
  phi_tracker_.track(&p, p.get_address(), red);
  send_down(p); // may be parked behind a red of its line
}

bool L1Module::phi_landed(Payload& t) {
  std::vector<const void*> go;
  if (!phi_tracker_.landed(&t, go)) return false; // runs the fences it completes
  t.release();
  for (const void* p : go) // parked behind it: already counted in in_flight_
    to_down_.push_back(static_cast<Payload*>(const_cast<void*>(p)));
  drain_down();
  if (phi_tracker_.empty()) phi_settled_.notify(SC_ZERO_TIME);
  wake(); // parked packets joined the miss queue
  return true;
}

// A load, store or non-eligible atomic to an update-only line: the partial
// values go to L2 first, then the access proceeds as a miss. In AT the
// access queues behind the packet on the same port, and the packet itself
// waits (PhiTracker) while an earlier packet of the line is on its way, so
// the access reaches L2 only after the line's earlier updates landed. LT
// returns when the packet landed (its blocking round trip), and the access
// leaves no earlier (Step::not_before): sending it at once, as LT did until
// 2026-11-27, put BFS on karate 20 % below AT (docs/validation/
// posted-writes.md, "PHI and hLRC").
Cycle L1Module::phi_release(const GpuAccess& a, Addr line, Cycle at) {
  if (!core_.phi() || core_.phi_eligible(a) || !core_.phi_release(line)) return 0;
  const Cycle landed = phi_send(at);
  return ctx_.at() ? 0 : landed;
}

void L1Module::release_async(std::function<void()> done) {
  if (!ctx_.at() || !core_.phi())
    throw std::logic_error(std::string(name()) + ": release_async is for PHI in AT only");
  core_.phi_flush();
  phi_send(clk_.now());
  for (const Writeback& wb : core_.flush())
    write_back(wb);
  core_.invalidate_all();
  wake(); // every line dropped: a stalled head's outcome may change
  phi_tracker_.after_current(std::move(done));
}

} // namespace tlmgpu
