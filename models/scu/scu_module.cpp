#include "models/scu/scu_module.hpp"

#include "tlmgpu/params.hpp"

#include <algorithm>
#include <cstring>
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
          stats_.counter("iru_replies", "lines", "ISCU: reply lines taken from the IRU windows")),
      read_cycles_(stats_.counter("read_cycles", "cycles",
                                  "vector, data and hash reads: cycles from send to answer, "
                                  "summed (what the coalescer entries hold)")),
      iru_fetch_overlap_(stats_.counter(
          "iru_fetch_overlap", "cycles",
          "ISCU: cycles from an operation's first IRU reply to its last element handed to the "
          "IRU, summed (the pulls overlapping the fetch; 0 when they wait for it)")),
      iru_write_overlap_(stats_.counter(
          "iru_write_overlap", "cycles",
          "ISCU: cycles from an operation's first output write to its last IRU reply, summed "
          "(the data store writing while replies come; 0 when it waits for the last)")) {
  // Little's law on the reads: why an operation takes the cycles it does
  // (entries busy * latency / entries = throughput).
  stats_.formula(
      "read_latency", "cycles", "read_cycles / reads: a read's average round trip",
      [&c = read_cycles_, &v = vector_reads_, &d = data_reads_, &h = hash_reads_](StatView w) {
        return ratio(c.value(w), double(v.value(w) + d.value(w) + h.value(w)));
      });
  stats_.formula(
      "reads_in_flight", "reads", "read_cycles / cycles: reads in flight on average",
      [&c = read_cycles_, &b = cycles_](StatView w) { return ratio(c.value(w), b.value(w)); });
  ctx.shared<ScuModule*>("scu", [] { return new ScuModule*(nullptr); }) = this;
  if (ctx.at()) {
    sc_core::sc_spawn([this] { store_loop(); }, "data_store");
    sc_core::sc_spawn([this] { filter_loop(); }, "filter_unit");
  }
}

ScuModule* ScuModule::of(SimContext& ctx) {
  return ctx.shared<ScuModule*>("scu", [] { return new ScuModule*(nullptr); });
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
  // The engine starts empty: nothing of an earlier operation is in flight.
  lines_.clear();
  phases_ = {};
  lt_now_ = write_start_ = lt_writes_end_ = gen_ = filter_free_ = clk_.now();
  last_start_.fill(lt_now_);
  for (auto& q : lt_entries_)
    q = {};
  group_sets_.clear();
  stream_ = IruStream();
  apply_pos_ = 0;
  flag_next_ = 0;
  flag_held_.clear();
  check_range(mem, c, "out", c.out,
              uint64_t(c.op == ScuOp::Bitmask ? 4 : c.elem_bytes) * c.out_capacity);
  ScuCore core(c, lb, spec_.width, spec_.coalescer_entries, spec_.coalescer_merge,
               spec_.vector_fifo_bytes);
  const Cycle start = clk_.now();
  const ByteReader rd = [this](Addr a, void* d, size_t n) { read_bytes(a, d, n); };
  // 4. The data store: output bytes (and the ISCU's costs) in order into
  // whole-line writes; the line being filled waits for the next to start.
  Tail out{c.out, c.out / lb * lb, std::vector<uint8_t>(lb, 0), std::vector<uint8_t>(lb, 0)};
  Tail cost_out{c.cost_out, c.cost_out / lb * lb, out.data, out.be};
  auto store = [&](const std::vector<uint8_t>& bytes, bool last) {
    const uint64_t out_elems = (out.bytes + bytes.size()) / core.out_elem_bytes();
    if (out_elems > c.out_capacity)
      throw ConfigError("SCU " + std::string(c.name()) + ": output of at least " +
                        std::to_string(out_elems) + " elements exceeds out_capacity " +
                        std::to_string(c.out_capacity));
    pack(out, bytes, core.out_elem_bytes(), last);
  };
  // The ISCU: the data elements not yet handed to the IRU partitions (in
  // output order) and their costs; the survivors come back in replies,
  // stored as they come.
  std::vector<Addr> words;
  std::vector<uint32_t> costs;
  const Deliver deliver = [&](const std::vector<uint8_t>& ids, const std::vector<uint8_t>& cost) {
    store(ids, false);
    if (c.cost_out) pack(cost_out, cost, 4, false);
  };
  // 2-3. Data addresses at `width` per cycle, coalesced, fetched in order:
  // the chunk's data reads, into phase `ph`.
  auto data_reads = [&](const std::vector<ScuElement>& elems, uint16_t ph) {
    std::vector<Req> data;
    uint64_t groups = 0;
    for (const auto& r : core.data_requests(elems)) {
      data.push_back({r.line, false, spec_.stage_cycles + groups, {}, {}, ph});
      groups += r.groups;
      merged_groups_ += r.groups - 1;
    }
    data_reads_ += data.size();
    return data;
  };
  // 1. A chunk's vector parameters into the vector FIFO, into phase `ph`.
  auto vector_reads = [&](uint64_t k, uint16_t ph) {
    std::vector<Req> vec;
    if (k < core.chunks())
      for (Addr l : core.vector_lines(k))
        vec.push_back({l, false, 0, {}, {}, ph});
    vector_reads_ += vec.size();
    return vec;
  };
  auto lines_of = [](const std::vector<Req>& reqs) {
    std::vector<Addr> lines;
    for (const Req& r : reqs)
      lines.push_back(r.line);
    return lines;
  };
  // The filter unit's job on a chunk whose data reads are issued: once they
  // are answered, its output filtered, grouped and stored (posted writes),
  // its lines released.
  uint64_t unfiltered = 0; // group: output positions of earlier chunks
  auto complete = [&](Chunk& ch) {
    finish(ch.phase);
    std::vector<uint8_t> bytes = core.output(ch.k, ch.elems, rd);
    if (c.filter != ScuFilter::None) bytes = filter_bytes(c, core, ch.elems, bytes);
    if (c.group) {
      const uint64_t pos = unfiltered;
      unfiltered += bytes.size() / 4;
      bytes = group_bytes(c, bytes, pos);
    }
    store(bytes, !c.group && ch.k + 1 == core.chunks());
    release(ch.lines);
  };
  std::vector<ScuElement> all; // order: every chunk's elements
  uint16_t vec_phase = open_phase();
  std::vector<Req> first = vector_reads(0, vec_phase);
  issue(first);
  std::vector<Addr> vec_lines = lines_of(first);
  // Element-granular streaming: the address generator takes a chunk a slice
  // (the elements one vector line holds) at a time, as soon as the slice's
  // vector lines are in, so the data reads go on across chunk boundaries.
  // A filter vector's flags stream too: a slice's flags are requested as
  // soon as its elements are known and applied once the slices after it
  // hold `flag_ahead` more flags (or at the chunk's end), so the data reads
  // of the slices before cover the flags' round trip.
  const bool applies = c.apply && !c.order;
  const bool fetches = !c.order && !via_iru;
  // About the elements the coalescer's entries hold when each reads a full
  // line. SSSP scu-filter on as20graph: a quarter of it is 2-3 % slower,
  // applying only at a chunk's end 0.1-0.7 % faster (its chunks are short);
  // this keeps long chunks (high degrees) streaming.
  const uint64_t flag_ahead = uint64_t(spec_.coalescer_entries) * lb / c.elem_bytes;
  struct Slice {
    std::vector<ScuElement> e;
    uint64_t pos, end, copies = 0; // apply: its first flag; the row it ends at; its flags
    std::vector<Addr> flags;
    Cycle ready; // its vectors (and flags) answered
  };
  // The filter unit's job uses this frame's state: if the generator throws,
  // the job must be done before the frame goes (at: it may be mid-way).
  struct FilterDone {
    ScuModule& m;
    ~FilterDone() { m.filter_idle(false); }
  } filter_done{*this};
  // The ISCU's pulls (the filter unit's job) end only once the IRU has
  // every element: if the generator throws, the IRU must have them all.
  struct IruClosed {
    ScuModule& m;
    ~IruClosed() { m.close_iru(); }
  } iru_closed{*this};
  for (uint64_t k = 0; k < core.chunks(); ++k) {
    Chunk ch{k, {}, std::move(vec_lines), fetches ? open_phase() : uint16_t(0)};
    const uint16_t next_phase = open_phase();
    const std::vector<Req> next = vector_reads(k + 1, next_phase);
    vec_lines = lines_of(next);
    ScuCoalescer co = core.coalescer();
    std::vector<ScuElement> elems;
    const uint64_t row0 = core.chunk_first(k), rows = core.chunk_count(k), end = row0 + rows;
    size_t v = 0;        // next chunk's vector lines issued
    uint64_t looked = 0; // the coalescer's lookups already paced by gen_
    // 2-3. A slice's data addresses at `width` per cycle, coalesced, one
    // lookup a cycle, no earlier than its vectors (and flags).
    auto fetch = [&](Slice& sl) {
      if (!c.order)
        for (const ScuElement& x : sl.e)
          data_elements_ += x.repeat;
      std::vector<Req> data;
      if (fetches) {
        gen_ = std::max({gen_, sl.ready, now()});
        const size_t added = co.add(sl.e, sl.end == end);
        const std::vector<ScuLineRequest>& all_reqs = co.requests();
        for (size_t i = all_reqs.size() - added; i < all_reqs.size(); ++i) {
          gen_ += all_reqs[i].lookup - std::min(looked, all_reqs[i].lookup);
          looked = all_reqs[i].lookup;
          data.push_back(
              {all_reqs[i].line, false, gen_ + spec_.stage_cycles - now(), {}, {}, ch.phase});
          ch.lines.push_back(all_reqs[i].line);
        }
        data_reads_ += data.size();
      }
      // The vector FIFO refills as the generator consumes this chunk's
      // entries: the next chunk's vector lines go out among the data reads,
      // in proportion.
      const size_t upto = next.size() * (sl.end - row0) / rows;
      std::vector<Req> reqs;
      const size_t nv = upto - v;
      for (size_t i = 0, u = 0; i < data.size(); ++i) {
        reqs.push_back(std::move(data[i]));
        for (; u < nv && (u + 1) * data.size() <= (i + 1) * nv; ++u, ++v)
          reqs.push_back(next[v]);
      }
      for (; v < upto; ++v)
        reqs.push_back(next[v]);
      issue(reqs);
      elems.insert(elems.end(), sl.e.begin(), sl.e.end());
    };
    std::deque<Slice> flagged; // apply: slices whose flags are on their way
    uint64_t ahead = 0;        // their flags
    for (uint64_t r0 = row0; r0 < end;) {
      const uint64_t step = core.slice_elements(), r1 = std::min(end, (r0 / step + 1) * step);
      Slice sl{{}, apply_pos_, r1, 0, {}, vectors_in(core.vector_lines(r0, r1))};
      sl.e = core.elements(r0, r1, rd);
      if (c.op == ScuOp::Access || c.op == ScuOp::AccessExpansion)
        for (const ScuElement& x : sl.e)
          check_range(mem, c, "data element", x.addr, c.elem_bytes);
      r0 = r1;
      // With a gather list the flags apply at the gathered positions (below).
      if (!applies) {
        fetch(sl);
        continue;
      }
      for (const ScuElement& x : sl.e)
        sl.copies += x.repeat;
      sl.flags = request_flags(core, sl.copies, vec_phase, sl.ready, mem);
      ahead += sl.copies;
      flagged.push_back(std::move(sl));
      while (!flagged.empty() && (ahead >= flag_ahead + flagged.front().copies || r1 == end)) {
        Slice& f = flagged.front();
        f.ready = std::max(f.ready, vectors_in(f.flags));
        ahead -= f.copies;
        f.e = core.applied(f.e, f.pos, rd);
        release_flags(c.apply, f.pos + f.copies);
        fetch(f);
        flagged.pop_front();
      }
    }
    for (const ScuLineRequest& r : co.requests())
      merged_groups_ += r.groups - 1;
    if (fetches && c.filter == ScuFilter::BestCost) {
      // The cost words after the chunk's data, one lookup a cycle from the
      // generator's cycle, into the chunk's phase: the filter unit finds
      // them with its data.
      std::vector<Req> costs_in = cost_reads(core, elems, mem);
      const Cycle from = std::max(gen_, now());
      for (Req& r : costs_in) {
        r.not_before += from - now();
        r.phase = ch.phase;
        ch.lines.push_back(r.line);
        gen_ = std::max(gen_, r.not_before + now() - spec_.stage_cycles);
      }
      issue(costs_in);
    }
    finish(vec_phase); // every line was waited for, slice by slice
    vec_phase = next_phase;
    if (c.order) { // the gather list needs every element first
      all.insert(all.end(), elems.begin(), elems.end());
    } else if (via_iru) { // the data fetches go to the IRU, not back to the SCU
      for (const ScuElement& e : elems)
        words.insert(words.end(), e.repeat, e.addr);
      if (c.filter == ScuFilter::BestCost || c.filter == ScuFilter::Sum) { // with them [A]
        // Sum: the row's weight came with the vectors (cost_add).
        const std::vector<uint32_t> chunk_costs =
            c.filter == ScuFilter::Sum ? core.costs(elems, rd, rd) : fetch_costs(core, elems, mem);
        costs.insert(costs.end(), chunk_costs.begin(), chunk_costs.end());
      }
      // The generator hands the chunk's elements over as it generates them
      // (hand_to_iru); functional hands the IRU every element at once, as a
      // single configuration did.
      if (ctx_.timed()) hand_to_iru(c, words, costs, mem, deliver);
    }
    ch.elems = std::move(elems);
    if (fetches)
      run_filter([&complete, ch = std::move(ch)]() mutable { complete(ch); });
    else
      release(ch.lines);
  }
  finish(vec_phase);
  if (via_iru) {
    hand_to_iru(c, words, costs, mem, deliver);
    close_iru();
  }
  filter_idle();
  if (c.group) store(group_flush(c), true);
  if (c.order) {
    const std::vector<ScuElement> ordered = apply_order(core, all, mem);
    data_elements_ += ordered.size();
    const uint16_t ph = open_phase();
    std::vector<Req> data = data_reads(ordered, ph);
    issue(data);
    finish(ph);
    store(core.output(0, ordered, rd), true);
    release(lines_of(data));
  }
  if (via_iru) {
    store({}, true);
    if (c.cost_out) pack(cost_out, {}, 4, true);
    end_iru();
  }
  drain();
  const uint64_t produced = out.bytes / core.out_elem_bytes();
  ++ops_;
  elements_in_ += c.n;
  elements_out_ += produced;
  cycles_ += clk_.now() - start;
  return produced;
}

} // namespace tlmgpu
