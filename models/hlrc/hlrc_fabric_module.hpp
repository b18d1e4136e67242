// The hLRC recall path (models/hlrc/README.md): a direct interface between
// the L2 slices (homes of the ownership registry) and the SMs' L1s (owners).
// One per simulation, kept in SimContext::shared; every L1, L2 slice and the
// crossbar of an hLRC platform attaches itself when it is built (of(), the
// attach_* calls), so the GPU module that composes them need not know it.
//
// Ownership requests and grants are ordinary atomic payloads on the request
// and reply networks. Recalls (home -> owner, the reverse of the request
// network), recall write-backs and releases are function calls: the data
// moves at the call, and the time the packets would take is modelled on the
// crossbar's links (XbarModule::hlrc_packet, counted in xbar.bytes) and
// returned to the caller. A recall never waits for anything, so it cannot
// deadlock with what the owner itself waits for.
#pragma once

#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/sim/clock.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tlmgpu {

class L1Module;
class L2Module;
class SimContext;
class XbarModule;

// Why an owner gives a line up (selects the traffic class).
enum class HlrcRelease : uint8_t {
  Eviction, // capacity: an owned line was the victim of a fill or grant
  Flush     // kernel end or a device/system-scope fence
};

struct HlrcRecall {
  std::optional<Writeback> data; // the owner's dirty bytes; none if clean or revoked
  Cycle back = 0;                // L2 cycle the write-back (or clean ack) reaches the home
  bool deferred = false;         // AT: the grant is still travelling; the answer comes later
};

// What an owner's L1 does with a recall.
enum class HlrcAnswer : uint8_t {
  Given,   // it owned the line: bytes handed back, line dropped
  Revoked, // the grant is on its way and the recall may not wait: the grant is
           // cancelled (the home performed its atomic and keeps the newest data)
  Deferred // the grant is on its way: the owner answers when it has arrived and
           // served the requests waiting for it (HlrcFabric::answer)
};

class HlrcFabric {
public:
  explicit HlrcFabric(SimContext& ctx);
  // The simulation's fabric (built by the first block that asks).
  static HlrcFabric& of(SimContext& ctx);
  void attach_l1(uint16_t sm, L1Module* l1);
  void attach_l2(uint32_t slice, L2Module* l2);
  void attach_xbar(XbarModule* xbar) { xbar_ = xbar; }

  // Home side: slice `slice` takes `line` back from SM `owner`, starting at
  // L2 cycle `start` (recall over the reply network, the owner's L1 access,
  // write-back over the request network). `may_defer` (AT request path): if
  // the owner's grant is still travelling, the owner answers later through
  // answer() -> L2Module::hlrc_recall_done; otherwise the grant is revoked.
  HlrcRecall recall(uint32_t slice, uint16_t owner, Addr line, Cycle start, bool may_defer);
  // Owner side, AT: the deferred recall of `line` is answered at SM cycle
  // `at` with the owner's bytes (`wb`, none if clean).
  void answer(uint16_t owner, Addr line, std::optional<Writeback> wb, Cycle at);

  // Owner side: SM `sm` gives up `wb.line` at SM cycle `at`; the home applies
  // the bytes and frees the registry entry now. Returns the SM cycle the data
  // reaches the home (the ack is counted, not waited for).
  Cycle release(uint16_t sm, const Writeback& wb, HlrcRelease why, Cycle at);

  // L2 cycle a grant leaving its slice at L2 cycle `leave` reaches the SM,
  // unloaded (an estimate for the registry; the grant itself is a reply).
  Cycle grant_arrival(Cycle leave) const;

private:
  unsigned dirty_sector_bytes(const Writeback& wb) const;
  // Sends the owner's write-back leg (or clean ack) offered at `answered`;
  // returns the L2 cycle it reaches the home. Drops a clean `data`.
  Cycle write_back_leg(uint32_t slice, uint16_t owner, std::optional<Writeback>& data,
                       const sc_core::sc_time& answered);
  struct Deferred {
    uint32_t slice;
    uint16_t owner;
    Cycle recall_at_owner; // crossbar cycle the recall reached the owner
  };
  std::map<Addr, Deferred> deferred_; // one outstanding deferred recall per line

  SimContext& ctx_;
  XbarModule* xbar_ = nullptr;
  std::vector<L1Module*> l1s_;
  std::vector<L2Module*> l2s_;
  Clock sm_clk_, l2_clk_; // from the attached L1s and L2 slices
  uint32_t l1_latency_ = 0;
};

} // namespace tlmgpu
