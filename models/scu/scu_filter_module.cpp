// The Filtering/Grouping unit's filters (seed-003 §2.4, §2.5; README.md
// "Filtering"): the hash table is real data in device memory, reached
// through the network and L2, one line access per cycle; and the filter
// vectors of the two-step use (generate, then apply to several arrays).
#include "models/scu/scu_module.hpp"

#include "tlmgpu/params.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace tlmgpu {

void ScuModule::run_filter(std::function<void()> job) {
  filter_idle(); // one chunk in the unit: the generator waits for the one before
  filter_job_ = std::move(job);
  filter_at_ = lt_now_;
  if (ctx_.at()) filter_wake_.notify(sc_core::SC_ZERO_TIME);
}

void ScuModule::filter_idle(bool rethrow) {
  if (!ctx_.at()) {
    if (!rethrow) { // the generator threw: nothing more of this operation
      filter_job_ = nullptr;
      return;
    }
    // lt: the job is booked from the unit's own time (handed, done with
    // the chunk before), not the generator's, which goes on from where it
    // was. It is booked when the generator next waits for the unit, after
    // the next chunk's data reads: the targets book in about cycle order.
    if (filter_job_) {
      const Cycle gen = lt_now_;
      lt_now_ = std::max(filter_at_, filter_free_);
      std::exchange(filter_job_, nullptr)();
      filter_free_ = lt_now_;
      lt_now_ = gen;
    }
    lt_now_ = std::max(lt_now_, filter_free_);
    return;
  }
  while (filter_job_)
    wait(filter_done_);
  if (std::exception_ptr e = std::exchange(filter_error_, nullptr); e && rethrow)
    std::rethrow_exception(e);
}

void ScuModule::filter_loop() {
  for (;;) {
    while (!filter_job_)
      wait(filter_wake_);
    // An error goes to the generator (the host's thread), which rethrows
    // it from execute() the next time it waits for the unit.
    try {
      filter_job_();
    } catch (...) {
      filter_error_ = std::current_exception();
    }
    filter_job_ = nullptr;
    filter_done_.notify(sc_core::SC_ZERO_TIME);
  }
}

void ScuModule::read_hash_sets(const ScuHash& h, const std::vector<uint32_t>& sets) {
  const unsigned lb = ctx_.net.line_bytes;
  std::vector<Req> reads;
  for (uint32_t s : sets) {
    const Addr line = h.set_addr(s) / lb * lb;
    if (hash_lines_.emplace(line, std::vector<uint8_t>()).second)
      reads.push_back({line, false, Cycle(reads.size()), {}, {}}); // one access per cycle
  }
  hash_reads_ += reads.size();
  const std::vector<Addr> read = transfer(reads, FilterUnit); // its own coalescer
  for (const Req& r : reads)
    hash_lines_[r.line] = lines_.at(r.line).bytes;
  release(read);
}

uint8_t* ScuModule::hash_set(const ScuHash& h, uint32_t set) {
  const unsigned lb = ctx_.net.line_bytes;
  const Addr a = h.set_addr(set), line = a / lb * lb;
  return hash_lines_.at(line).data() + (a - line);
}

void ScuModule::write_hash_lines(const std::vector<Addr>& lines) {
  std::vector<Req> writes;
  for (Addr l : lines)
    writes.push_back({l, true, Cycle(writes.size()), hash_lines_[l],
                      std::vector<uint8_t>(ctx_.net.line_bytes, 0xff)});
  hash_writes_ += writes.size();
  transfer(writes);
}

std::vector<uint8_t> ScuModule::filter_chunk(const ScuCommand& c, const std::vector<uint32_t>& keys,
                                             const std::vector<uint32_t>& costs) {
  const unsigned lb = ctx_.net.line_bytes;
  std::vector<uint32_t> sets;
  for (uint32_t x : keys)
    sets.push_back(c.hash.set_of(x));
  read_hash_sets(c.hash, sets);
  std::vector<uint8_t> keep(keys.size(), 0);
  std::vector<Addr> dirty;
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint32_t x = keys[i];
    const Addr set = c.hash.set_addr(sets[i]), line = set / lb * lb;
    uint8_t* entries = hash_set(c.hash, sets[i]);
    const bool kept = c.filter == ScuFilter::BestCost
                          ? scu_best_cost_filter(x, costs[i], entries, c.hash.ways, &victim_[set])
                          : scu_unique_filter(x, entries, c.hash.ways, &victim_[set]);
    if (!kept) {
      ++filtered_;
      continue;
    }
    keep[i] = 1;
    if (std::find(dirty.begin(), dirty.end(), line) == dirty.end()) dirty.push_back(line);
  }
  write_hash_lines(dirty);
  return keep;
}

std::vector<Addr> ScuModule::request_flags(const ScuCore& core, uint64_t n, uint16_t ph, Cycle at,
                                           const DeviceMemory& mem) {
  const ScuCommand& c = core.command();
  const unsigned lb = ctx_.net.line_bytes;
  check_range(mem, c, "apply", c.apply + 4 * apply_pos_, 4 * n);
  // The flags are one stream, in order, whole lines: a line two slices (or
  // chunks) share is read once, and they are read ahead of the data reads
  // that wait for them.
  const std::vector<Addr> lines = core.apply_lines(apply_pos_, n);
  std::vector<Req> reads;
  for (Addr l : lines)
    if (l >= flag_next_) {
      reads.push_back({l, false, at - std::min(at, now()), {}, {}, ph});
      flag_next_ = l + lb;
      flag_held_.push_back(l);
    }
  vector_reads_ += reads.size();
  issue(reads);
  apply_pos_ += n;
  return lines;
}

void ScuModule::release_flags(Addr apply, uint64_t pos) {
  const unsigned lb = ctx_.net.line_bytes;
  while (!flag_held_.empty() && (pos == UINT64_MAX || flag_held_.front() + lb <= apply + 4 * pos)) {
    release({flag_held_.front()});
    flag_held_.pop_front();
  }
}

std::vector<ScuModule::Req> ScuModule::cost_reads(const ScuCore& core,
                                                  const std::vector<ScuElement>& e,
                                                  const DeviceMemory& mem) {
  // The cost words sit at the elements' positions in `cost`: fetched like
  // the data, through the coalescing unit (cost_add came with the vectors).
  const ScuCommand& c = core.command();
  std::vector<ScuElement> at;
  for (const ScuElement& x : e) {
    at.push_back({core.cost_addr(x), x.repeat, x.row});
    check_range(mem, c, "cost element", at.back().addr, 4);
  }
  std::vector<Req> reads;
  uint64_t groups = 0;
  for (const ScuLineRequest& r : core.data_requests(at)) {
    reads.push_back({r.line, false, spec_.stage_cycles + groups, {}, {}});
    groups += r.groups;
    merged_groups_ += r.groups - 1;
  }
  data_reads_ += reads.size();
  return reads;
}

std::vector<uint32_t> ScuModule::fetch_costs(const ScuCore& core, const std::vector<ScuElement>& e,
                                             const DeviceMemory& mem) {
  std::vector<Req> reads = cost_reads(core, e, mem);
  const std::vector<Addr> read = transfer(reads);
  const ByteReader rd = [this](Addr a, void* d, size_t k) { read_bytes(a, d, k); };
  std::vector<uint32_t> out = core.costs(e, rd, rd);
  release(read);
  return out;
}

std::vector<uint8_t> ScuModule::filter_bytes(const ScuCommand& c, const ScuCore& core,
                                             const std::vector<ScuElement>& e,
                                             const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> keys(bytes.size() / 4);
  std::memcpy(keys.data(), bytes.data(), 4 * keys.size());
  // BestCost: the chunk's cost lines came with its data (the generator
  // read them after the chunk's data lines), held until the chunk is done.
  const ByteReader rd = [this](Addr a, void* d, size_t k) { read_bytes(a, d, k); };
  const std::vector<uint8_t> keep = filter_chunk(
      c, keys, c.filter == ScuFilter::BestCost ? core.costs(e, rd, rd) : std::vector<uint32_t>());
  std::vector<uint8_t> out;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (c.generate) {
      const uint32_t flag = keep[i];
      out.insert(out.end(), reinterpret_cast<const uint8_t*>(&flag),
                 reinterpret_cast<const uint8_t*>(&flag) + 4);
    } else if (keep[i]) {
      out.insert(out.end(), bytes.begin() + 4 * i, bytes.begin() + 4 * i + 4);
    }
  }
  return out;
}

} // namespace tlmgpu
