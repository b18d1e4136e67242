// The ring joining the IRU partitions (seed-003 §3.4 step 4, thesis Fig.
// 5.4d): each partition sends to the next over its ring_out socket. A packet
// is one line of words: a header (kind, destination, count, configuration
// epoch) and either elements (index, secondary, position) bound for the
// partition that owns their set, or secondary words bound for the partition
// that holds their index (iru_layout.hpp).
//
// Timing [A]: a link moves `ring_link_elements` elements per cycle (a
// packet of k holds it ceil(k / that) cycles) plus `ring_hop_cycles` a hop; packets passing through
// go before this partition's own (the ring has priority, thesis §5.2.2). Each partition buffers
// `ring_buffer_elements` of passing traffic; a sender reserves room at the next partition before it
// sends (credits), and puts a new packet on the ring only if a packet's worth of room stays free
// (bubble flow control), so the ring cannot fill up and deadlock.
#include "models/iru/iru_module.hpp"

#include <cstring>

using namespace sc_core;

namespace tlmgpu {
namespace {

struct Header {
  uint8_t kind, dest, count, epoch;
};
Header header_of(const uint8_t* d) {
  Header h;
  std::memcpy(&h, d, 4);
  return h;
}
uint32_t words_per(uint8_t kind) {
  return kind == 0 ? 3 : 2; // an element, or a (position, secondary) pair
}

} // namespace

void IruModule::post(uint32_t dest, Packet kind, const uint32_t* words, Cycle at) {
  const uint32_t per = words_per(uint8_t(kind)), fit = (ctx_.net.line_bytes / 4 - 1) / per;
  Open& o = open_[dest];
  if (o.t && header_of(o.t->data()).kind != uint8_t(kind)) flush_posts();
  if (!o.t) {
    GpuAccess a;
    a.kind = AccessKind::Store;
    a.src_sm = 0xffff;
    o.t = ctx_.pool.allocate();
    o.t->setup(tlm::TLM_WRITE_COMMAND, 0, ctx_.net.line_bytes, a);
    const Header h{uint8_t(kind), uint8_t(dest), 0, control_.epoch()};
    std::memcpy(o.t->data(), &h, 4);
    o.at = at;
  }
  Header h = header_of(o.t->data());
  std::memcpy(o.t->data() + 4 + 4 * per * h.count, words, 4 * per);
  ++h.count;
  std::memcpy(o.t->data(), &h, 4);
  o.at = std::max(o.at, at);
  if (kind == Packet::Secondary) ++secondary_sent_;
  if (h.count == fit) flush_posts();
}

// Closes every open packet and sends what waits (lt: now, by b_transport).
void IruModule::flush_posts() {
  for (Open& o : open_) {
    if (!o.t) continue;
    o.t->set_initiator_state(o.at);
    local_q_.push_back(o.t);
    local_elems_ += header_of(o.t->data()).count;
    o.t = nullptr;
  }
  if (ctx_.at()) return pump_ring();
  while (!local_q_.empty()) {
    GpuPayload* t = local_q_.front();
    local_q_.pop_front();
    local_elems_ -= header_of(t->data()).count;
    ++ring_packets_;
    ring_hops_ += header_of(t->data()).count;
    const Cycle at = t->initiator_state<Cycle>();
    sc_time d = ctx_.timed()
                    ? clk_.until(link_lt_.acquire(at, link_cycles(header_of(t->data()).count)))
                    : SC_ZERO_TIME;
    ring_out.b_transport(*t, d);
    t->release();
  }
}

// lt, functional: the packet travels on within the call (lt: after its
// turn on this partition's outgoing link, link_lt_).
void IruModule::ring_b_transport(Payload& t, sc_time& d) {
  const Header h = header_of(t.get_data_ptr());
  const Cycle at = ctx_.timed() ? clk_.at_or_after(sc_time_stamp() + d) + spec_.ring_hop_cycles +
                                      link_cycles(h.count)
                                : 0;
  if (h.dest != index_) {
    ++ring_forwarded_;
    ring_hops_ += h.count;
    sc_time on =
        ctx_.timed() ? clk_.until(link_lt_.acquire(at, link_cycles(h.count))) : SC_ZERO_TIME;
    ring_out.b_transport(t, on);
    return;
  }
  if (h.epoch == control_.epoch()) on_packet(t.get_data_ptr(), at);
  flush_posts();
}

// at: a packet arrived on ring_in. The sender's payload is answered at
// once (its buffer here was reserved); a copy goes on after the hop.
void IruModule::ring_arrived(GpuPayload* in) {
  GpuPayload* t = ctx_.pool.allocate();
  t->setup(tlm::TLM_WRITE_COMMAND, 0, ctx_.net.line_bytes, in->access());
  std::memcpy(t->data(), in->data(), ctx_.net.line_bytes);
  ring_in.respond(*in, SC_ZERO_TIME);
  const Header h = header_of(t->data());
  timer_.schedule(clk_.cycles(spec_.ring_hop_cycles + link_cycles(h.count)), [this, t] {
    const Header p = header_of(t->data());
    if (p.dest != index_) {
      pass_q_.push_back(t);
      ring_fill_.sample(pass_elems_);
      pump_ring();
      return;
    }
    if (p.epoch == control_.epoch()) on_packet(t->data(), clk_.now());
    t->release();
    flush_posts();
    control_.kick();
  });
}

void IruModule::pump_ring() {
  const uint32_t parts = control_.partitions(), next = (index_ + 1) % parts;
  const uint64_t cap = spec_.ring_buffer_elements, packet = (ctx_.net.line_bytes / 4 - 1) / 2;
  IruModule& succ = control_.part(next);
  while (ring_out.can_send()) {
    const bool passing = !pass_q_.empty();
    if (!passing && local_q_.empty()) return;
    GpuPayload* t = passing ? pass_q_.front() : local_q_.front();
    const Header h = header_of(t->data());
    const Cycle now = clk_.now(), ready = passing ? now : t->initiator_state<Cycle>();
    if (std::max(ready, link_free_) > now) {
      if (!pump_scheduled_) {
        pump_scheduled_ = true;
        timer_.schedule(clk_.until(std::max(ready, link_free_)), [this] {
          pump_scheduled_ = false;
          pump_ring();
        });
      }
      return;
    }
    // Room at the next partition, unless the packet ends there.
    const uint64_t need = h.dest == next ? 0 : h.count + (passing ? 0 : packet);
    if (need && succ.pass_elems_ + need > cap) return; // it calls pump_ring() as it frees room
    if (h.dest != next) succ.pass_elems_ += h.count;
    (passing ? pass_q_ : local_q_).pop_front();
    if (passing) {
      pass_elems_ -= h.count;
      ++ring_forwarded_;
      control_.part((index_ + parts - 1) % parts).pump_ring(); // room freed here
    } else {
      local_elems_ -= h.count;
      ++ring_packets_;
    }
    ring_hops_ += h.count;
    link_free_ = now + link_cycles(h.count);
    ring_out.send(*t);
  }
}

void IruModule::on_packet(const uint8_t* data, Cycle at) {
  const Header h = header_of(data);
  const uint8_t* w = data + 4;
  for (uint32_t i = 0; i < h.count; ++i, w += 4 * words_per(h.kind)) {
    uint32_t v[3];
    std::memcpy(v, w, 4 * words_per(h.kind));
    if (h.kind == uint8_t(Packet::Element)) {
      control_.core().arrive(index_, {v[0], v[1], v[2]}, at + spec_.stage_cycles);
    } else if (auto whole = pairing_.secondary(v[0], v[1], at)) {
      classify(whole->e, whole->at);
    }
  }
}

} // namespace tlmgpu
