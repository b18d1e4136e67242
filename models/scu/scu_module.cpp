#include "models/scu/scu_module.hpp"

#include "tlmgpu/params.hpp"

#include <algorithm>
#include <cstring>
#include <queue>
#include <sstream>

namespace tlmgpu {

ScuModule::ScuModule(sc_core::sc_module_name n, SimContext& ctx, const ScuSpec& spec,
                     StatGroup& parent)
    : sc_module(n), port("mem", spec.coalescer_entries, [this](Payload& t) { on_response(t); }),
      ctx_(ctx), spec_(spec), clk_(spec.clock_mhz), stats_(parent, basename()),
      ops_(stats_.counter("ops", "", "operations executed")),
      cycles_(stats_.counter("cycles", "cycles", "SCU cycles busy (GPU/SCU time split)")),
      elements_in_(stats_.counter("elements_in", "elements", "input elements (vector lengths)")),
      elements_out_(stats_.counter("elements_out", "elements", "elements written")),
      data_elements_(stats_.counter("data_elements", "elements",
                                    "data elements the address generator produced (after a "
                                    "filter vector, before filtering; energy)")),
      vector_reads_(stats_.counter("vector_reads", "lines", "mask/index/count line reads")),
      data_reads_(stats_.counter("data_reads", "lines", "data line reads after coalescing")),
      writes_(stats_.counter("writes", "lines", "output line writes (coalesced)")),
      merged_groups_(
          stats_.counter("merged_groups", "", "element groups served by a read already in flight")),
      filtered_(stats_.counter("filtered", "elements", "elements the filter dropped")),
      hash_reads_(stats_.counter("hash_reads", "lines", "hash set lines read by the filter")),
      hash_writes_(stats_.counter("hash_writes", "lines", "hash set lines written by the filter")),
      iru_elements_(stats_.counter("iru_elements", "elements",
                                   "ISCU (filter_unit = iru): elements filtered in the IRU "
                                   "partitions, each a probe the in-memory hash did not make")),
      iru_replies_(
          stats_.counter("iru_replies", "lines", "ISCU: reply lines taken from the IRU windows")) {
  ctx.shared<ScuModule*>("scu", [] { return new ScuModule*(nullptr); }) = this;
}

ScuModule* ScuModule::of(SimContext& ctx) {
  return ctx.shared<ScuModule*>("scu", [] { return new ScuModule*(nullptr); });
}

void ScuModule::read_bytes(Addr a, void* dst, size_t n) const {
  const unsigned lb = ctx_.net.line_bytes;
  auto* d = static_cast<uint8_t*>(dst);
  while (n) {
    const Addr line = a / lb * lb;
    const size_t off = a - line, k = std::min<size_t>(n, lb - off);
    auto it = lines_.find(line);
    if (it == lines_.end()) throw std::logic_error("SCU: a line the core needs was not fetched");
    std::memcpy(d, it->second.data() + off, k);
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
  if (r.write) {
    std::memcpy(t->data(), r.data.data(), lb);
    std::memcpy(t->byte_enable(), r.be.data(), lb);
    t->enable_bytes(lb);
  }
  return t;
}

void ScuModule::on_response(Payload& t) {
  auto& p = static_cast<GpuPayload&>(t);
  if (pulling_)
    take_pulled(p); // only window lines are read while pulling
  else if (p.get_command() == tlm::TLM_READ_COMMAND)
    lines_[p.get_address()].assign(p.data(), p.data() + ctx_.net.line_bytes);
  p.release();
  --outstanding_;
  answered_.notify(sc_core::SC_ZERO_TIME);
}

void ScuModule::transfer(std::vector<Req>& reqs) {
  const unsigned lb = ctx_.net.line_bytes;
  // Reads in flight are bounded by the coalescer's entries and by the data
  // FIFO (lines outstanding or waiting to be delivered in order).
  const uint64_t window = std::max<uint64_t>(
      1, std::min<uint64_t>(spec_.coalescer_entries, spec_.fetch_fifo_bytes / lb));
  const Cycle t0 = clk_.now();
  if (!ctx_.at()) {
    // Blocking transport with the request's own start time as the input
    // delay (the targets book their resources at that time); a request
    // starts when its elements are generated and one of `window` slots is
    // free, i.e. the earliest of the in-flight requests has finished.
    std::priority_queue<Cycle, std::vector<Cycle>, std::greater<>> busy;
    Cycle end = t0;
    for (Req& r : reqs) {
      Cycle start = t0 + r.not_before;
      while (busy.size() >= window) {
        start = std::max(start, busy.top());
        busy.pop();
      }
      GpuPayload* t = make(r);
      sc_core::sc_time d = clk_.cycles(start - t0);
      port.b_transport(*t, d);
      const Cycle done = t0 + clk_.at_or_after(d);
      if (!r.write) lines_[r.line].assign(t->data(), t->data() + lb);
      t->release();
      busy.push(done);
      end = std::max(end, done);
    }
    wait(clk_.until(end));
    return;
  }
  for (Req& r : reqs) {
    if (clk_.now() < t0 + r.not_before) wait(clk_.until(t0 + r.not_before));
    while (outstanding_ >= window || !port.can_send())
      wait(answered_);
    GpuPayload* t = make(r);
    ++outstanding_;
    port.send(*t);
  }
  while (outstanding_)
    wait(answered_);
}

void ScuModule::check_range(const DeviceMemory& mem, const ScuCommand& c, const char* what, Addr a,
                            uint64_t bytes) {
  if (!bytes || mem.contains(a, bytes)) return;
  std::ostringstream os;
  os << "SCU " << c.name() << ": " << what << " 0x" << std::hex << a << std::dec << " (" << bytes
     << " bytes) is outside every device allocation";
  throw ConfigError(os.str());
}

uint64_t ScuModule::execute(const ScuCommand& c, const DeviceMemory& mem) {
  if (std::string p = c.problem(); !p.empty())
    throw ConfigError("SCU " + std::string(c.name()) + ": " + p);
  // The vectors and the whole output area first: nothing is read or
  // written if one of them is out of bounds.
  check_range(mem, c, "mask", c.mask, c.mask ? 4 * c.n : 0);
  check_range(mem, c, "index", c.index, c.index ? 4 * c.n : 0);
  check_range(mem, c, "count", c.count, c.count ? 4 * c.n : 0);
  if (c.op == ScuOp::Bitmask || c.op == ScuOp::Data || c.op == ScuOp::Replication)
    check_range(mem, c, "data", c.data, uint64_t(c.elem_bytes) * c.n);
  const unsigned lb = ctx_.net.line_bytes;
  // The ISCU: filtering in the IRU partitions, no table in memory.
  const bool via_iru = c.filter != ScuFilter::None && spec_.filter_unit == "iru";
  if (c.filter == ScuFilter::Sum && !via_iru)
    throw ConfigError("SCU " + std::string(c.name()) +
                      ": filter: the sum reduction runs in the IRU partitions only "
                      "(scu.filter_unit = iru)");
  if ((c.filter != ScuFilter::None && !via_iru) || c.group) {
    if (!c.hash.sets)
      throw ConfigError("SCU " + std::string(c.name()) +
                        ": filter: no hash table (hash.base, hash.sets); scu.filter_unit = hash "
                        "filters with a table in device memory");
    check_range(mem, c, "hash", c.hash.base, c.hash.bytes());
    if (c.hash.set_bytes() > lb || c.hash.base % c.hash.set_bytes())
      throw ConfigError("SCU " + std::string(c.name()) + ": hash sets of " +
                        std::to_string(c.hash.ways) + " ways of " +
                        std::to_string(c.hash.entry_bytes) + " bytes must lie within one " +
                        std::to_string(lb) + "-byte line (base aligned to the set size)");
  }
  if (via_iru && c.generate)
    throw ConfigError("SCU " + std::string(c.name()) +
                      ": scu.filter_unit = iru filters inline only (no filter vector in the "
                      "ISCU); use scu.filter_unit = hash");
  if (c.cost_out && !via_iru)
    throw ConfigError("SCU " + std::string(c.name()) +
                      ": cost_out: only the ISCU (scu.filter_unit = iru) writes the survivors' "
                      "costs");
  check_range(mem, c, "cost_out", c.cost_out, c.cost_out ? 4 * c.out_capacity : 0);
  hash_lines_.clear();
  group_sets_.clear();
  apply_pos_ = 0;
  check_range(mem, c, "out", c.out,
              uint64_t(c.op == ScuOp::Bitmask ? 4 : c.elem_bytes) * c.out_capacity);
  ScuCore core(c, lb, spec_.width, spec_.coalescer_entries, spec_.coalescer_merge,
               spec_.vector_fifo_bytes);
  const Cycle start = clk_.now();
  const ByteReader rd = [this](Addr a, void* d, size_t n) { read_bytes(a, d, n); };
  uint64_t out_bytes = 0;
  std::vector<uint8_t> tail(lb, 0), tail_be(lb, 0); // the output line being filled
  Addr tail_line = c.out / lb * lb;
  auto flush_tail = [&](std::vector<Req>& w, Cycle at) {
    if (std::none_of(tail_be.begin(), tail_be.end(), [](uint8_t b) { return b; })) return;
    w.push_back({tail_line, true, at, tail, tail_be});
    std::fill(tail_be.begin(), tail_be.end(), 0);
  };
  // 4. The data store: output bytes into whole-line writes.
  auto store = [&](const std::vector<uint8_t>& bytes, bool last) {
    const uint64_t out_elems = (out_bytes + bytes.size()) / core.out_elem_bytes();
    if (out_elems > c.out_capacity)
      throw ConfigError("SCU " + std::string(c.name()) + ": output of at least " +
                        std::to_string(out_elems) + " elements exceeds out_capacity " +
                        std::to_string(c.out_capacity));
    std::vector<Req> w;
    for (size_t i = 0; i < bytes.size(); ++i) {
      const Addr a = c.out + out_bytes + i, line = a / lb * lb;
      if (line != tail_line) {
        flush_tail(w, spec_.stage_cycles + (i / core.out_elem_bytes()) / spec_.width);
        tail_line = line;
      }
      tail[a - line] = bytes[i];
      tail_be[a - line] = 0xff;
    }
    out_bytes += bytes.size();
    if (last) flush_tail(w, spec_.stage_cycles + bytes.size() / 4 / spec_.width);
    writes_ += w.size();
    transfer(w);
  };
  std::vector<Addr> words;     // via_iru: the data elements, in output order
  std::vector<uint32_t> costs; // via_iru, BestCost: their costs
  // 2-3. Data addresses at `width` per cycle, coalesced, fetched in order;
  // the bytes they produce.
  auto fetch = [&](uint64_t k, const std::vector<ScuElement>& elems) {
    const std::vector<ScuLineRequest> dreq = core.data_requests(elems);
    std::vector<Req> data;
    uint64_t groups = 0;
    for (const auto& r : dreq) {
      data.push_back({r.line, false, spec_.stage_cycles + groups, {}, {}});
      groups += r.groups;
      merged_groups_ += r.groups - 1;
    }
    data_reads_ += data.size();
    transfer(data);
    return core.output(k, elems, rd);
  };
  std::vector<ScuElement> all; // order: every chunk's elements
  uint64_t unfiltered = 0;     // group: output positions of earlier chunks
  for (uint64_t k = 0; k < core.chunks(); ++k) {
    lines_.clear();
    // 1. Vector parameters into the vector FIFO.
    std::vector<Req> vec;
    for (Addr l : core.vector_lines(k))
      vec.push_back({l, false, 0, {}, {}});
    vector_reads_ += vec.size();
    transfer(vec);
    // 2-3. Data addresses at `width` per cycle, coalesced, fetched in order.
    std::vector<ScuElement> elems = core.elements(k, rd);
    if (c.op == ScuOp::Access || c.op == ScuOp::AccessExpansion)
      for (const ScuElement& e : elems)
        check_range(mem, c, "data element", e.addr, c.elem_bytes);
    if (c.apply) elems = apply_filter(core, elems, mem);
    for (const ScuElement& e : elems)
      data_elements_ += e.repeat;
    if (c.order) { // the gather list needs every element first
      all.insert(all.end(), elems.begin(), elems.end());
      continue;
    }
    if (via_iru) { // the data fetches go to the IRU, not back to the SCU
      for (const ScuElement& e : elems)
        words.insert(words.end(), e.repeat, e.addr);
      if (c.filter == ScuFilter::BestCost || c.filter == ScuFilter::Sum) { // with them [A]
        // Sum: the row's weight came with the vectors (cost_add).
        const std::vector<uint32_t> chunk_costs =
            c.filter == ScuFilter::Sum ? core.costs(elems, rd, rd) : fetch_costs(core, elems, mem);
        costs.insert(costs.end(), chunk_costs.begin(), chunk_costs.end());
      }
      continue;
    }
    std::vector<uint8_t> bytes = fetch(k, elems);
    if (c.filter != ScuFilter::None) bytes = filter_bytes(c, core, elems, bytes, mem);
    if (c.group) {
      const uint64_t pos = unfiltered;
      unfiltered += bytes.size() / 4;
      bytes = group_bytes(c, bytes, pos);
    }
    store(bytes, !c.group && k + 1 == core.chunks());
  }
  if (c.group) store(group_flush(c), true);
  if (c.order) {
    lines_.clear();
    const std::vector<ScuElement> ordered = apply_order(core, all, mem);
    store(fetch(0, ordered), true);
  }
  if (via_iru && !words.empty()) {
    store(filter_in_iru(c, words, costs, mem), true);
    if (c.cost_out) write_lines(c.cost_out, iru_cost_);
  }
  const uint64_t produced = out_bytes / core.out_elem_bytes();
  ++ops_;
  elements_in_ += c.n;
  elements_out_ += produced;
  cycles_ += clk_.now() - start;
  return produced;
}

} // namespace tlmgpu
