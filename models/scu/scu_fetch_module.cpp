// The SCU's fetch engine (scu_module.hpp, "The fetch engine"): requests in
// issue order per unit, reads bounded by the unit's coalescer entries,
// writes posted. lt books every request at its own start cycle and keeps
// the unit's time in lt_now_ without waiting; at sends and waits for
// answers. Both give a read's answer to the phase it belongs to.
#include "models/scu/scu_module.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tlmgpu {

void ScuModule::read_bytes(Addr a, void* dst, size_t n) const {
  const unsigned lb = ctx_.net.line_bytes;
  auto* d = static_cast<uint8_t*>(dst);
  while (n) {
    const Addr line = a / lb * lb;
    const size_t off = a - line, k = std::min<size_t>(n, lb - off);
    auto it = lines_.find(line);
    if (it == lines_.end() || it->second.bytes.empty())
      throw std::logic_error("SCU: a line the core needs was not fetched");
    std::memcpy(d, it->second.bytes.data() + off, k);
    d += k, a += k, n -= k;
  }
}

GpuPayload* ScuModule::make(const Req& r, uint16_t warp) {
  const unsigned lb = ctx_.net.line_bytes;
  GpuAccess a;
  a.kind = r.write ? AccessKind::Store : AccessKind::Load;
  a.src_sm = 0xffff; // not an SM: replies route by the crossbar input
  a.src_warp = warp;
  a.sector_mask = (1u << (lb / ctx_.net.sector_bytes)) - 1;
  a.txn_id = ctx_.pool.next_txn_id();
  GpuPayload* t = ctx_.pool.allocate();
  t->setup(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.line, lb, a);
  t->set_initiator_state(uint8_t(0)); // 1: a load of an IRU window (take_pulled)
  if (r.write) {
    std::memcpy(t->data(), r.data.data(), lb);
    std::memcpy(t->byte_enable(), r.be.data(), lb);
    t->enable_bytes(lb);
  }
  return t;
}

void ScuModule::on_response(Payload& t) {
  auto& p = static_cast<GpuPayload&>(t);
  const bool read = p.get_command() == tlm::TLM_READ_COMMAND;
  if (read && p.initiator_state<uint8_t>() == 1) { // the ISCU's pulls go on beside the fetch
    take_pulled(p);
    --outstanding_;
  } else if (!read) {
    --writes_out_;
  } else {
    Fetched& f = lines_[p.get_address()];
    f.bytes.assign(p.data(), p.data() + ctx_.net.line_bytes);
    f.ready = clk_.now();
    Phase& ph = phases_[access_of(p).src_warp];
    --ph.outstanding;
    count_in_flight();
    --reads_out_[ph.unit];
  }
  p.release();
  answered_.notify(sc_core::SC_ZERO_TIME);
}

void ScuModule::count_in_flight() {
  const Cycle t = clk_.now();
  read_cycles_ += (reads_out_[Fetch] + reads_out_[FilterUnit]) * (t - occupancy_since_);
  occupancy_since_ = t;
}

uint16_t ScuModule::open_phase() {
  for (uint16_t i = 0; i < phases_.size(); ++i)
    if (!phases_[i].open) {
      phases_[i] = Phase{true, Fetch, 0, lt_now_};
      return i;
    }
  throw std::logic_error("SCU: more pipeline phases open than the engine holds");
}

Cycle ScuModule::now() const {
  return ctx_.at() ? clk_.now() : lt_now_;
}

void ScuModule::issue(std::vector<Req>& reqs, Unit u) {
  const unsigned lb = ctx_.net.line_bytes;
  // Reads in flight are bounded by the coalescer's entries and by the data
  // FIFO (lines outstanding or waiting to be delivered in order).
  const uint64_t window = std::max<uint64_t>(
      1, std::min<uint64_t>(spec_.coalescer_entries, spec_.fetch_fifo_bytes / lb));
  const Cycle from = now();
  for (Req& r : reqs)
    if (!r.write) {
      ++lines_[r.line].users;
      phases_[r.phase].unit = u;
    }
  if (!ctx_.at()) {
    // Blocking transport with the request's own start cycle as the input
    // delay (the targets book their resources at that cycle): a read starts
    // once its elements are generated, after the unit's previous request
    // and when one of `window` entries is free, i.e. the earliest read in
    // flight has been answered.
    auto& entries = lt_entries_[u];
    for (Req& r : reqs) {
      Cycle start = from + r.not_before;
      if (r.write) {
        start = std::max(start, write_start_);
        write_start_ = start;
      } else {
        start = std::max(start, last_start_[u]);
        while (entries.size() >= window) {
          start = std::max(start, entries.top());
          entries.pop();
        }
        last_start_[u] = start;
      }
      GpuPayload* t = make(r);
      const Cycle base = clk_.now();
      sc_core::sc_time d = clk_.cycles(start - base);
      port.b_transport(*t, d);
      const Cycle done = base + clk_.at_or_after(d);
      if (r.write) {
        lt_writes_end_ = std::max(lt_writes_end_, done);
      } else {
        Fetched& f = lines_[r.line];
        f.bytes.assign(t->data(), t->data() + lb);
        f.ready = done;
        entries.push(done);
        read_cycles_ += done - start;
        phases_[r.phase].end = std::max(phases_[r.phase].end, done);
      }
      t->release();
    }
    return;
  }
  for (Req& r : reqs) {
    if (r.write) { // to the data store's own process, in order
      write_start_ = std::max(write_start_, from + r.not_before);
      store_q_.push_back({write_start_, std::move(r)});
      store_wake_.notify(sc_core::SC_ZERO_TIME);
      continue;
    }
    if (clk_.now() < from + r.not_before) wait(clk_.until(from + r.not_before));
    while (reads_out_[u] >= window || !port.can_send())
      wait(answered_);
    GpuPayload* t = make(r, r.phase);
    count_in_flight();
    ++reads_out_[u];
    ++phases_[r.phase].outstanding;
    port.send(*t);
  }
}

void ScuModule::pack(Tail& t, const std::vector<uint8_t>& bytes, uint32_t elem_bytes, bool last) {
  const unsigned lb = ctx_.net.line_bytes;
  std::vector<Req> w;
  auto flush = [&](Cycle at) {
    if (std::none_of(t.be.begin(), t.be.end(), [](uint8_t b) { return b; })) return;
    w.push_back({t.line, true, at, t.data, t.be});
    std::fill(t.be.begin(), t.be.end(), 0);
  };
  for (size_t i = 0; i < bytes.size(); ++i) {
    const Addr a = t.base + t.bytes + i, line = a / lb * lb;
    if (line != t.line) {
      flush(spec_.stage_cycles + (i / elem_bytes) / spec_.width);
      t.line = line;
    }
    t.data[a - line] = bytes[i];
    t.be[a - line] = 0xff;
  }
  t.bytes += bytes.size();
  if (last) flush(spec_.stage_cycles + bytes.size() / 4 / spec_.width);
  writes_ += w.size();
  transfer(w);
  // The write_start_ of the first write of an ISCU operation, for its stats.
  if (!w.empty() && stream_.iru) stream_.first_write = std::min(stream_.first_write, write_start_);
}

void ScuModule::store_loop() {
  for (;;) {
    while (store_q_.empty())
      wait(store_wake_);
    const Cycle at = store_q_.front().at;
    if (clk_.now() < at) wait(clk_.until(at));
    while (!port.can_send())
      wait(answered_);
    GpuPayload* t = make(store_q_.front().req);
    store_q_.pop_front();
    ++writes_out_;
    port.send(*t);
  }
}

void ScuModule::finish(uint16_t ph) {
  Phase& p = phases_[ph];
  if (ctx_.at())
    while (p.outstanding)
      wait(answered_);
  else
    lt_now_ = std::max(lt_now_, p.end);
  p.open = false;
}

Cycle ScuModule::vectors_in(const std::vector<Addr>& lines) {
  Cycle t = 0;
  for (Addr l : lines) {
    // A line an earlier chunk also read may already hold its bytes: the
    // same values, so the generator need not wait for the second read.
    if (ctx_.at())
      while (lines_.at(l).bytes.empty())
        wait(answered_);
    t = std::max(t, lines_.at(l).ready);
  }
  return t;
}

std::vector<Addr> ScuModule::transfer(std::vector<Req>& reqs, Unit u) {
  const uint16_t ph = open_phase();
  for (Req& r : reqs)
    r.phase = ph;
  issue(reqs, u);
  finish(ph);
  std::vector<Addr> read;
  for (const Req& r : reqs)
    if (!r.write) read.push_back(r.line);
  return read;
}

void ScuModule::release(const std::vector<Addr>& lines) {
  for (Addr l : lines) {
    auto it = lines_.find(l);
    if (it != lines_.end() && --it->second.users == 0) lines_.erase(it);
  }
}

void ScuModule::sync() {
  if (ctx_.at()) return;
  if (lt_now_ > clk_.now()) wait(clk_.until(lt_now_));
  lt_now_ = clk_.now();
}

void ScuModule::drain() {
  if (ctx_.at()) {
    while (writes_out_ || !store_q_.empty() ||
           std::any_of(phases_.begin(), phases_.end(),
                       [](const Phase& p) { return p.outstanding != 0; }))
      wait(answered_);
    return;
  }
  lt_now_ = std::max(lt_now_, lt_writes_end_);
  sync();
}

} // namespace tlmgpu
