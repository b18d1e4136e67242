// Crossbar between the SMs (target ports) and the L2 slices (initiator ports),
// routed by the address map. Separate request and reply networks, per-port
// serialization in flits (XbarCore), and in AT a bounded buffer per output:
// when an L2 slice withholds END_REQ, its buffer fills, input heads bound for
// it stall, input queues fill, and the SMs see END_REQ withheld in turn.
#pragma once

#include "models/xbar/xbar_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <array>
#include <deque>
#include <memory>
#include <vector>

namespace tlmgpu {

class XbarModule : public sc_core::sc_module {
public:
  // `inputs` target ports (one per initiator), `slices` initiator ports (one
  // per L2 slice of the address map) and `devices` more (one per device
  // window of the address map), as the topology binds them.
  XbarModule(sc_core::sc_module_name n, SimContext& ctx, const XbarSpec& spec, StatGroup& parent,
             unsigned inputs, unsigned slices, unsigned devices = 0);
  std::vector<std::unique_ptr<TargetPort>> sm_ports; // port `in[i]`
  // Port `out[s]` (L2 slice s) is slice_ports[s]; port `dev[k]` (device
  // window k) is slice_ports[slices + k].
  std::vector<std::unique_ptr<InitiatorPort>> slice_ports;
  unsigned slices() const { return slices_; }
  unsigned debug_access(Payload& t) { return debug(t); } // the host's untimed path

  // hLRC side-band packet (recall, recall write-back, release, ack) between
  // SM `sm` and slice `slice` carrying `data_bytes`, offered at crossbar
  // cycle `offered`: counted like any packet (and in its class), links
  // reserved LT-style in call order. Returns the cycle its tail arrives
  // (`offered` in functional mode). xbar_hlrc_module.cpp.
  Cycle hlrc_packet(HlrcTraffic cls, unsigned sm, unsigned slice, unsigned data_bytes,
                    Cycle offered);
  const Clock& clock() const { return clk_; }
  const XbarSpec& spec() const { return spec_; }
  unsigned flits(unsigned data_bytes) const { return core_.flits(data_bytes); }

private:
  void hlrc_init();
  void hlrc_count(HlrcTraffic cls, unsigned flits);
  struct Output {
    size_t reserved = 0;           // packets accepted from inputs, not yet handed on
    std::deque<Payload*> overflow; // arrived but the slice port's queue was full
    std::deque<unsigned> blocked;  // inputs whose head waits for room here, in order
    bool draining = false;         // drain_output is running (it must not re-enter)
  };
  void b_transport(unsigned sm, Payload& t, sc_core::sc_time& delay);
  unsigned debug(Payload& t);
  void serve_input(unsigned sm);
  void deliver(unsigned slice, Payload& t);
  void drain_output(unsigned slice);
  void on_reply(unsigned slice, Payload& t);
  void count(const GpuAccess& a);
  // Injected latency (jitter.xbar_cycles) on a packet arriving at `at` over
  // path `path` of `last` (AT: per input-output pair, kept in order).
  Cycle jittered(Cycle at, std::vector<Cycle>& last, size_t path);

  // The output an address goes to: its device window's port, else its slice's.
  unsigned route(Addr a) const {
    const int dev = ctx_.address_map.device_of(a);
    return dev >= 0 ? slices_ + unsigned(dev) : ctx_.address_map.slice_of(a);
  }
  // route() through a direct-mapped memo of recent addresses: AT routes an
  // input's front request again on every retry, and the hashed map is real
  // divisions on 24 channels (issue 13: 538 K routings for 347 K requests,
  // 2.7 % of the AT histogram's instructions). route() is a pure function
  // of the address, so a hit answers exactly what it would.
  unsigned route_at(Addr a) {
    RouteMemo& m = route_memo_[(a >> 7) % route_memo_.size()];
    if (m.addr != a) m = RouteMemo{a, route(a)};
    return m.slice;
  }
  struct RouteMemo {
    Addr addr = ~Addr{0}; // no access starts at the last byte of memory and is routed
    unsigned slice = 0;
  };
  std::array<RouteMemo, 1024> route_memo_;

  SimContext& ctx_;
  const XbarSpec& spec_;
  Clock clk_;
  XbarCore core_;
  unsigned slices_;
  size_t out_capacity_;
  std::vector<Output> out_;
  std::vector<bool> input_blocked_;
  TimedQueue timer_{"timer"};
  // Injected non-determinism (jitter.*); off: never drawn, vectors empty.
  uint32_t jitter_max_ = 0;
  JitterStream latency_jitter_, ties_;
  std::vector<Cycle> last_request_, last_reply_; // AT: latest arrival per [in][out], [out][in]

  StatGroup stats_;
  Counter &req_packets_, &req_flits_, &resp_packets_, &resp_flits_, &bytes_, &input_stalls_;
  Average& req_latency_;
  std::unique_ptr<StatGroup> hlrc_stats_; // gpu.xbar.hlrc, only with l1.atomic_mode = hlrc
  std::unique_ptr<sc_core::sc_module> hlrc_channel_; // its recall channel (HlrcChannel)
  std::array<Counter*, size_t(HlrcTraffic::Count)> hlrc_packets_{}, hlrc_flits_{};
};

} // namespace tlmgpu
