// The IRU as SystemC blocks: one IruModule per memory partition, joined by a
// ring of TLM sockets, sharing one IruControl (the logical hash, the global
// element count and the at service loop). IruCore decides; these move lines,
// ring packets and warp requests, and say when (README.md).
//
//        xbar.dev[p] ──► req          ring_in ◄── partition p - 1
//                          │             │
//              IruModule p: prefetcher ─► classifier ─► (local set) ─► IruCore
//                          │                         └► ring_out ──► partition p + 1
//        mem[s] ──► join ──► L2 slice p * mem_ports + s   (real data, through L2)
//
// A warp's load_iru is a load of the partition's device window: line 0
// takes a reply of 32 indices (0xffffffff = inactive lane), then lines 1
// and 2 return that reply's secondary words and positions (README.md).
#pragma once

#include "models/iru/iru_core.hpp"
#include "models/iru/iru_kernel.hpp"
#include "models/iru/iru_layout.hpp"
#include "models/iru/iru_spec.hpp"
#include "tlmgpu/device_memory.hpp"
#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/sim/builder.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"
#include "tlmgpu/stats.hpp"

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

class IruModule;

// The controller's global side, shared by a device's partitions; host
// programs reach it with IruControl::of(ctx).
class IruControl {
public:
  IruControl(SimContext& ctx, const IruSpec& spec, uint32_t partitions, uint32_t mem_ports);
  // nullptr if the platform places no IRU.
  static IruControl* of(SimContext& ctx);
  bool enabled() const { return spec_.enabled; }
  uint32_t partitions() const { return partitions_; }
  // configure_iru (seed-003 §3.2): checks `c` (ConfigError naming the field,
  // or an array outside `mem`'s allocations), empties the hash, and every
  // partition starts prefetching now. false, doing nothing, when
  // iru.enabled is false: the host runs its GPU-only version.
  bool configure(const IruConfig& c, const DeviceMemory& mem);
  // Partition p's device window, where warps send their load_iru requests.
  Addr window(uint32_t p) const;
  // What a kernel needs for load_iru (iru_kernel.hpp): the windows.
  IruDevice device() const;
  // Elements not handed out and not merged away (0 once a kernel took all).
  uint64_t remaining() const { return core_.remaining(); }

  // For the partitions.
  void add(IruModule& m, uint32_t index);
  IruModule& part(uint32_t p) { return *parts_[p]; }
  IruCore& core() { return core_; }
  const IruConfig& config() const { return cfg_; }
  const IruLayout& layout() const { return layout_; }
  uint8_t epoch() const { return epoch_; } // tags lines and packets of one configuration
  void kick() { wake_at(clk_.now()); }     // at: something changed; serve now
  void sync_all();                         // every partition's counters from the core
  uint64_t idle_mask() const;              // bit p: partition p has no request waiting

private:
  void wake_at(Cycle c);
  void service();
  SimContext& ctx_;
  const IruSpec& spec_;
  uint32_t partitions_;
  Clock clk_;
  IruCore core_;
  IruLayout layout_;
  IruConfig cfg_;
  uint8_t epoch_ = 0;
  std::vector<IruModule*> parts_; // by partition index
  Cycle wake_ = kIruNever;        // the earliest service scheduled
};

class IruModule : public sc_core::sc_module {
public:
  // Partition `index`: its `mem_ports` memory ports reach L2 slices
  // [index * mem_ports, (index + 1) * mem_ports); it answers device window
  // `window`.
  IruModule(sc_core::sc_module_name n, SimContext& ctx, const IruSpec& spec, uint32_t index,
            uint32_t partitions, uint32_t mem_ports, Addr window, StatGroup& parent);
  TargetPort req;                                  // warp requests, from xbar.dev[index]
  std::vector<std::unique_ptr<InitiatorPort>> mem; // prefetches, to joins before L2 slices
  TargetPort ring_in;                              // from partition index - 1
  InitiatorPort ring_out;                          // to partition index + 1
  Addr window() const { return window_; }
  uint32_t index() const { return index_; }

  // IruControl's side.
  void reset();          // a new configuration: nothing fetched, nothing paired
  void begin();          // then (every partition reset): prefetch from now
  void serve(Cycle now); // at: answer the waiting requests the core can answer
  void issue();          // at: prefetch while the window and the classifier have room
  bool needs_service() const { return !waiting_.empty() || throttled_; }
  bool waiting() const { return !waiting_.empty(); }
  Cycle next_timeout(Cycle now) const;
  void sync_stats();

private:
  enum class Packet : uint8_t { Element, Secondary };
  // --- prefetcher and classifier (iru_module.cpp)
  GpuPayload* read(Addr line);
  void prefetch_blocking(Cycle t0); // lt, functional: every line now, `in_flight` at a time
  void on_mem_response(Payload& t);
  void on_line(uint32_t k, const uint8_t* data, Cycle at);
  void classify(const IruElement& e, Cycle at);
  // --- ring (iru_ring_module.cpp)
  void post(uint32_t dest, Packet kind, const uint32_t* words, Cycle at);
  void flush_posts();
  void send_packet(GpuPayload* t, Cycle at);
  void pump_ring();
  void ring_b_transport(Payload& t, sc_core::sc_time& d);
  void ring_arrived(GpuPayload* t);
  void on_packet(const uint8_t* data, Cycle at); // for this partition
  Cycle link_cycles(uint32_t elements) const {   // a packet's time on one link
    return (elements + spec_.ring_link_elements - 1) / spec_.ring_link_elements;
  }
  // --- requests (iru_reply_module.cpp)
  void req_b_transport(Payload& t, sc_core::sc_time& d);
  void pull_requests();
  uint32_t decode(Payload& t) const; // which window line: 0 take, 1 secondary, 2 positions
  void answer(Payload& t, const IruCore::Reply& r, Cycle waited);
  void companion(Payload& t, uint32_t line);
  Cycle ring_cycles(const IruCore::Reply& r) const;
  // A warp's request waits at most timeout_cycles; the ISCU's pre-processing
  // (a gather configuration) is answered only with full sets and at the
  // drain (thesis §6.2: results go out when entries are ready or the input
  // is exhausted), so a set is never replied, and forgotten, half-filtered.
  bool times_out() const { return control_.config().gather.empty(); }

  SimContext& ctx_;
  const IruSpec& spec_;
  const uint32_t index_;
  const Addr window_;
  Clock clk_;
  IruControl& control_;
  TimedQueue timer_{"timer"};
  // prefetch
  std::vector<IruLayout::Line> lines_;
  size_t next_ = 0;
  uint32_t in_flight_ = 0;
  bool throttled_ = false;
  IruPairing pairing_;
  // ring: packets being filled per destination, then waiting to go (local
  // ones behind the ones passing through: the ring has priority)
  struct Open {
    GpuPayload* t = nullptr;
    Cycle at = 0;
  };
  std::vector<Open> open_;
  std::deque<GpuPayload*> local_q_, pass_q_;
  uint64_t local_elems_ = 0, pass_elems_ = 0;
  Cycle link_free_ = 0;
  // lt: the outgoing link's busy time, booked by arrival time (the calls of
  // one configuration come in call order, not time order), so packets queue
  // for the link as at's do instead of passing it in parallel.
  IntervalResource link_lt_;
  bool pump_scheduled_ = false;
  // requests
  struct Waiting {
    Payload* t;
    Cycle since;
  };
  std::deque<Waiting> waiting_;
  struct Last {
    uint32_t secondary[32], position[32];
  };
  std::unordered_map<uint32_t, Last> last_; // per (SM, warp slot): its last reply
  // stats
  StatGroup stats_;
  IruCounts synced_;
  Counter &lines_read_, &elements_, &ring_packets_, &ring_forwarded_, &ring_hops_, &secondary_sent_,
      &requests_, &companions_, &replies_full_, &replies_timeout_, &replies_drain_,
      &replies_inactive_, &replied_, &stolen_, &arrived_, &inserted_, &merged_, &remembered_,
      &stalls_, &prefetch_stalls_;
  Average &wait_, &blocks_;
  Histogram& ring_fill_;
};

// configure_iru (thesis Fig. 5.7) from a host program: false if the
// platform places no IRU or iru.enabled is false (run the GPU-only version).
bool configure_iru(SimContext& ctx, const IruConfig& c, const DeviceMemory& mem);

// The block type `iru` (iru_blocks.cpp).
BlockType iru_block_type();

} // namespace tlmgpu
