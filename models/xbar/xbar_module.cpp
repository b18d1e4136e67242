#include "models/xbar/xbar_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <algorithm>

using namespace sc_core;

namespace tlmgpu {

XbarModule::XbarModule(sc_module_name n, SimContext& ctx, const XbarSpec& spec, StatGroup& parent,
                       unsigned inputs, unsigned slices, unsigned devices)
    : sc_module(n), ctx_(ctx), spec_(spec), clk_(spec.clock_mhz),
      core_(spec, inputs, slices + devices, ctx.net.sector_bytes,
            ctx.mode == TimingMode::LT ? Booking::TimeOrder : Booking::CallOrder),
      slices_(slices),
      // A slot holds a packet of up to line-size data; the flit buffer bounds the count.
      out_capacity_(std::max<size_t>(1, spec.buffer_flits / spec.flits(ctx.net.line_bytes))),
      out_(slices + devices), input_blocked_(inputs, false), stats_(parent, basename()),
      req_packets_(stats_.counter("request_packets", "packets", "packets on the request network")),
      req_flits_(stats_.counter("request_flits", "flits", "flits on the request network")),
      resp_packets_(stats_.counter("reply_packets", "packets", "packets on the reply network")),
      resp_flits_(stats_.counter("reply_flits", "flits", "flits on the reply network")),
      bytes_(stats_.counter("bytes", "bytes", "flit bytes moved on both networks")),
      input_stalls_(stats_.counter("stall_output_full", "events",
                                   "an input's head packet waited for room at its output (AT)")),
      req_latency_(stats_.average("request_latency", "cycles", "request offered to delivered")) {
  stats_.formula("backpressured", "events", "SM requests whose END_REQ the crossbar withheld",
                 [this](StatView) {
                   double n = 0;
                   for (auto& p : sm_ports)
                     n += double(p->backpressured());
                   return n;
                 });
  stats_.formula("flits", "flits", "request + reply flits",
                 [this](StatView v) { return double(req_flits_.value(v) + resp_flits_.value(v)); });
  stats_.formula("link_wait_cycles", "cycles", "cycles packets waited for busy links (all ports)",
                 [this](StatView) { return double(core_.link_wait_cycles()); });
  const unsigned in_capacity = std::max(1u, spec_.buffer_flits / spec_.flits(0));
  for (unsigned i = 0; i < inputs; ++i) {
    TargetPort::Hooks h;
    h.b_transport = [this, i](Payload& t, sc_time& d) { b_transport(i, t, d); };
    h.debug = [this](Payload& t) { return debug(t); };
    h.on_request = [this, i] { serve_input(i); };
    sm_ports.push_back(std::make_unique<TargetPort>(("sm_port_" + std::to_string(i)).c_str(),
                                                    in_capacity, std::move(h)));
  }
  for (unsigned j = 0; j < slices + devices; ++j) // slices, then device windows
    slice_ports.push_back(std::make_unique<InitiatorPort>(
        (j < slices ? "slice_port_" + std::to_string(j) : "dev_port_" + std::to_string(j - slices))
            .c_str(),
        2, [this, j](Payload& t) { on_reply(j, t); }, [this, j] { drain_output(j); }));
  if (ctx.net.coherence == AtomicProtocol::Hlrc) hlrc_init();
  jitter_max_ = ctx.jitter.xbar();
  if (jitter_max_) {
    latency_jitter_ = ctx.jitter_stream(name(), "latency");
    if (ctx.at()) {
      last_request_.assign(size_t(inputs) * out_.size(), 0);
      last_reply_.assign(size_t(inputs) * out_.size(), 0);
    }
  }
  if (ctx.jitter.tie_breaks()) ties_ = ctx.jitter_stream(name(), "ties");
}

// In AT a packet never overtakes an earlier one between the same input and
// output: the L1 and L2 rely on per-path order for a thread's program order
// (a store and a later load of the same word). Across paths, the order at an
// output is what the jitter changes. In LT the data moves within the call, so
// only the time is jittered.
Cycle XbarModule::jittered(Cycle at, std::vector<Cycle>& last, size_t path) {
  if (!jitter_max_) return at;
  at += latency_jitter_.delay(jitter_max_);
  if (!last.empty()) {
    at = std::max(at, last[path]);
    last[path] = at;
  }
  return at;
}

void XbarModule::count(const GpuAccess& a) {
  unsigned rq = core_.flits(core_.request_bytes(a)), rp = core_.flits(core_.reply_bytes(a));
  ++req_packets_;
  ++resp_packets_;
  req_flits_ += rq;
  resp_flits_ += rp;
  bytes_ += uint64_t(rq + rp) * spec_.flit_bytes;
  if (hlrc_stats_ && a.is_rmw()) { // hLRC: every atomic asks for ownership
    hlrc_count(HlrcTraffic::OwnershipRequest, rq);
    hlrc_count(HlrcTraffic::Grant, rp);
  }
}

void XbarModule::b_transport(unsigned sm, Payload& t, sc_time& delay) {
  const GpuAccess& a = access_of(t);
  const unsigned slice = route(t.get_address());
  count(a);
  if (!ctx_.timed()) {
    slice_ports[slice]->b_transport(t, delay);
    return;
  }
  // Every initiator's local time is at or after the kernel's, so nothing is
  // offered before `now` any more: the links may forget what ended by then.
  const Cycle now = clk_.now();
  const Cycle offered = clk_.at_or_after(sim_now() + delay);
  const Cycle at_slice =
      jittered(core_.traverse_request(sm, slice, core_.flits(core_.request_bytes(a)), offered, now),
               last_request_, 0);
  req_latency_.sample(double(at_slice - offered));
  delay = clk_.cycles(at_slice) - sim_now();
  slice_ports[slice]->b_transport(t, delay);
  const Cycle back = clk_.at_or_after(sim_now() + delay);
  const Cycle at_sm =
      jittered(core_.traverse_reply(slice, sm, core_.flits(core_.reply_bytes(a)), back, now),
               last_reply_, 0);
  delay = clk_.cycles(at_sm) - sim_now();
}

unsigned XbarModule::debug(Payload& t) {
  return slice_ports[route(t.get_address())]->debug(t);
}

// AT: move packets from input `sm` into the switch while their output has room.
void XbarModule::serve_input(unsigned sm) {
  TargetPort& in = *sm_ports[sm];
  while (in.has_request()) {
    Payload& t = in.front();
    const unsigned slice = route_at(t.get_address());
    Output& o = out_[slice];
    if (o.reserved >= out_capacity_) {
      if (!input_blocked_[sm]) {
        input_blocked_[sm] = true;
        o.blocked.push_back(sm);
        ++input_stalls_;
      }
      return;
    }
    ++o.reserved;
    in.pop();
    static_cast<GpuPayload&>(t).push_route(uint16_t(sm)); // the reply goes back by this port
    const GpuAccess& a = access_of(t);
    count(a);
    const Cycle now = clk_.now();
    const Cycle at_slice =
        jittered(core_.traverse_request(sm, slice, core_.flits(core_.request_bytes(a)), now),
                 last_request_, size_t(sm) * out_.size() + slice);
    req_latency_.sample(double(at_slice - now));
    timer_.schedule(clk_.until(at_slice), [this, slice, &t] { deliver(slice, t); });
  }
}

void XbarModule::deliver(unsigned slice, Payload& t) {
  out_[slice].overflow.push_back(&t);
  drain_output(slice);
}

void XbarModule::drain_output(unsigned slice) {
  Output& o = out_[slice];
  InitiatorPort& p = *slice_ports[slice];
  bool freed = false;
  while (!o.overflow.empty() && p.can_send()) {
    p.send(*o.overflow.front());
    o.overflow.pop_front();
    --o.reserved;
    freed = true;
  }
  if (!freed || o.blocked.empty()) return;
  TLMGPU_CHECK(!o.draining && "xbar: drain_output re-entered");
  o.draining = true;
  std::deque<unsigned>& b = o.blocked;
  // Blocked inputs are woken in the order they blocked; jitter.ties shuffles
  // that order (Fisher-Yates on the stream), as a real arbiter's state would.
  if (ties_.on())
    for (size_t k = b.size(); k > 1; --k)
      std::swap(b[k - 1], b[ties_.below(k)]);
  // Wake only while there is room. The rest would find this output full
  // again (their head packets are unchanged and nothing frees a slot before
  // a later delivery), so they stay blocked in order, each counted as the
  // stall serving them would count. They stay where they are: moving the
  // whole list out and back on every drain cost ~28 pushes per woken input
  // on the AT histogram (issue 13).
  const size_t waiting = b.size();
  // The heads about to be served waited in their queues: load them together.
  for (size_t k = 0, room = out_capacity_ - o.reserved; k < waiting && k < room; ++k)
    prefetch_payload(sm_ports[b[k]]->front());
  size_t woken = 0;
  for (; woken < waiting && o.reserved < out_capacity_; ++woken) {
    const unsigned in = b.front();
    b.pop_front();
    input_blocked_[in] = false;
    serve_input(in); // may block again here: pushed at the back
  }
  const size_t rest = waiting - woken;
  input_stalls_ += rest;
  // An input that blocked again while being served goes before the rest,
  // as it did when the rest were pushed back after the serving.
  for (size_t again = b.size() - rest; again > 0; --again) {
    const unsigned in = b.back();
    b.pop_back();
    b.push_front(in);
  }
  o.draining = false;
}

void XbarModule::on_reply(unsigned slice, Payload& t) {
  const GpuAccess& a = access_of(t);
  const unsigned sm = static_cast<GpuPayload&>(t).pop_route(); // the input port it came by
  TLMGPU_CHECK(sm < sm_ports.size());
  const Cycle now = clk_.now();
  const Cycle at_sm =
      jittered(core_.traverse_reply(slice, sm, core_.flits(core_.reply_bytes(a)), now), last_reply_,
               size_t(slice) * sm_ports.size() + sm);
  sm_ports[sm]->respond(t, clk_.until(at_sm));
}

} // namespace tlmgpu
