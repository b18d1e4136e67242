#include "workloads/work_steal/ws_queue.hpp"

#include "models/host/host_module.hpp"
#include "tlmgpu/params.hpp"

#include <algorithm>

namespace tlmgpu::work_steal {
namespace {

constexpr uint32_t kMaxPerQueue = 0xffff; // 16-bit head and tail

uint32_t head_of(uint32_t word) {
  return word & 0xffff;
}
uint32_t tail_of(uint32_t word) {
  return word >> 16;
}
uint32_t pack(uint32_t head, uint32_t tail) {
  return head | tail << 16;
}

void count_run(const Queues& q, uint32_t task) {
  if (task < q.tally->runs.size()) ++q.tally->runs[task];
}

// One lane does the queue work; the task id is the warp's.
const Mask kOne = Mask::lane(0);

// termination=counter: the CAS that takes a queue's last task (owner or
// thief) adds one to the count of empty queues; a thief reads the count
// before it scans and every kProbesPerCount probes, and all of them empty
// (they never refill during a kernel) ends its search without a probe of
// each (`done`). Without the counter it scans every queue once.
constexpr uint32_t kProbesPerCount = 8;
WarpTask emptied(Warp& w, const Queues& q) {
  if (!q.empty_count) co_return;
  co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(q.empty_count), Lanes<uint32_t>(1u), kOne,
                              MemOrder::Relaxed, Scope::Device);
}
WarpTask all_empty(Warp& w, const Queues& q, bool& done) {
  done = false;
  if (!q.empty_count) co_return;
  const uint32_t n =
      (co_await w.atomic<uint32_t>(AtomicOp::Or, Lanes<Addr>(q.empty_count), Lanes<uint32_t>(0u),
                                   kOne, MemOrder::Relaxed, Scope::Device))[0];
  ++*q.tally->count_reads;
  done = n >= q.count;
}

// One steal attempt at `victim`: read its word (promoted in rsp), then claim
// the head by CAS until it is empty or the claim wins (task set).
WarpTask steal_from(Warp& w, const Queues& q, uint32_t victim, int64_t& task) {
  const Lanes<Addr> a(q.words + Addr(victim) * q.stride);
  // The thief reads the word with an acquire at device scope, promoted in
  // rsp (the notes' atomic_ld_rem_acq_cmp): the owner's CTA-scope updates
  // then reach it, and the read races with nothing (HRF).
  uint32_t v = q.scenario == Scenario::Rsp
                   ? (co_await w.atomic_remote<uint32_t>(AtomicOp::Or, a, Lanes<uint32_t>(0u), kOne,
                                                         MemOrder::Acquire))[0]
                   : (co_await w.atomic<uint32_t>(AtomicOp::Or, a, Lanes<uint32_t>(0u), kOne,
                                                  MemOrder::Acquire, Scope::Device))[0];
  ++*q.tally->probes;
  while (head_of(v) < tail_of(v)) {
    const Lanes<uint32_t> want(pack(head_of(v) + 1, tail_of(v)));
    const uint32_t old =
        q.scenario == Scenario::Rsp
            ? (co_await w.atomic_cas_remote<uint32_t>(a, Lanes<uint32_t>(v), want, kOne,
                                                      MemOrder::AcqRel))[0]
            : (co_await w.atomic_cas<uint32_t>(a, Lanes<uint32_t>(v), want, kOne, MemOrder::AcqRel,
                                               Scope::Device))[0];
    if (old == v) {
      task = int64_t(q.first(victim) + head_of(v));
      ++*q.tally->steals;
      count_run(q, uint32_t(task));
      if (head_of(v) + 1 == tail_of(v)) co_await emptied(w, q);
      co_return;
    }
    ++*q.tally->cas_failures;
    v = old;
  }
}

// The thief's SM list, read once with one device-scope atomic per lane
// (lane i: word i; the count word and unwritten entries give nothing).
// Stored farthest first, so the vector's back is the first to try.
WarpTask read_near(Warp& w, const Queues& q, Cursor& c) {
  c.near_read = true;
  if (w.sm_id() >= q.sms) co_return;
  const uint32_t words = std::min<uint32_t>(q.list_cap + 1, w.lane_count());
  const Mask m = Mask::all(words);
  const Lanes<Addr> a =
      Lanes<Addr>(q.list_count(w.sm_id())) + lane_index().as<Addr>() * Lanes<Addr>(4);
  const Lanes<uint32_t> e = co_await w.atomic<uint32_t>(AtomicOp::Or, a, Lanes<uint32_t>(0u), m,
                                                        MemOrder::Relaxed, Scope::Device);
  for (uint32_t i = words; i-- > 1;)
    if (e[i] != 0 && e[i] - 1 != c.home) c.near.push_back(e[i] - 1);
}

} // namespace

bool parse_termination(const std::string& s) {
  if (s == "scan") return false;
  if (s == "counter") return true;
  throw ConfigError("workload argument termination: '" + s + "' is not one of scan, counter");
}

VictimOrder parse_victim_order(const std::string& s) {
  if (s == "ring") return VictimOrder::Ring;
  if (s == "near") return VictimOrder::Near;
  throw ConfigError("workload argument victims: '" + s + "' is not one of ring, near");
}

Scenario parse_scenario(const std::string& s) {
  if (s == "baseline") return Scenario::Baseline;
  if (s == "steal-only") return Scenario::StealOnly;
  if (s == "scope-only") return Scenario::ScopeOnly;
  if (s == "rsp") return Scenario::Rsp;
  throw ConfigError("workload argument scenario: '" + s +
                    "' is not one of baseline, steal-only, scope-only, rsp");
}

const char* scenario_name(Scenario s) {
  switch (s) {
  case Scenario::Baseline:
    return "baseline";
  case Scenario::StealOnly:
    return "steal-only";
  case Scenario::ScopeOnly:
    return "scope-only";
  case Scenario::Rsp:
    return "rsp";
  }
  return "?";
}

WarpTask next_task(Warp& w, const Queues& q, Cursor& c, int64_t& task) {
  task = kNoTask;
  if (!c.home_empty) {
    // Owner: read the word (ld_acq at the owner's scope), then take the
    // tail's task with a CAS (acq_rel); a failed CAS returns the word to
    // retry with (a thief took the head meanwhile).
    const Scope scope = owner_scope(q.scenario);
    const Lanes<Addr> a(q.words + Addr(c.home) * q.stride);
    uint32_t v = (co_await w.load<uint32_t>(a, kOne, MemOrder::Acquire, scope))[0];
    for (;;) {
      const uint32_t h = head_of(v), t = tail_of(v);
      if (h >= t) break;
      const uint32_t old =
          (co_await w.atomic_cas<uint32_t>(a, Lanes<uint32_t>(v), Lanes<uint32_t>(pack(h, t - 1)),
                                           kOne, MemOrder::AcqRel, scope))[0];
      if (old == v) {
        task = int64_t(q.first(c.home) + t - 1);
        ++*q.tally->owner_takes;
        count_run(q, uint32_t(task));
        if (h == t - 1) co_await emptied(w, q);
        co_return;
      }
      ++*q.tally->cas_failures;
      v = old;
    }
    c.home_empty = true;
  }
  if (!steals(q.scenario)) co_return;
  bool done = false; // termination=counter: every queue is empty
  co_await all_empty(w, q, done);
  if (done) co_return;
  if (q.order == VictimOrder::Near) {
    if (!c.near_read) co_await read_near(w, q, c);
    // Nearest first; a queue seen empty stays empty (nothing is enqueued
    // during a kernel), so it leaves the list and the ring skips it.
    while (!c.near.empty()) {
      const uint32_t victim = c.near.back();
      co_await steal_from(w, q, victim, task);
      if (task != kNoTask) {
        ++*q.tally->near_steals;
        co_return;
      }
      c.near.pop_back();
      c.near_empty.push_back(victim);
    }
  }
  for (uint32_t k = 0, probed = 0; k < q.count; ++k) {
    const uint32_t victim = (c.victim + k) % q.count;
    if (victim == c.home ||
        std::find(c.near_empty.begin(), c.near_empty.end(), victim) != c.near_empty.end())
      continue;
    if (++probed % kProbesPerCount == 0) {
      co_await all_empty(w, q, done);
      if (done) co_return;
    }
    co_await steal_from(w, q, victim, task);
    if (task != kNoTask) {
      c.victim = victim;
      co_return;
    }
  }
}

WarpTask register_near(Warp& w, const Queues& q, uint32_t home) {
  if (q.order != VictimOrder::Near || w.sm_id() >= q.sms) co_return;
  const Addr list = q.list_count(w.sm_id());
  const uint32_t slot =
      (co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(list), Lanes<uint32_t>(1u), kOne,
                                   MemOrder::Relaxed, Scope::Device))[0];
  if (slot >= q.list_cap) co_return; // a full list: this queue is found by the ring only
  co_await w.atomic<uint32_t>(AtomicOp::Exch, Lanes<Addr>(list + 4 + Addr(slot) * 4),
                              Lanes<uint32_t>(home + 1), kOne, MemOrder::Relaxed, Scope::Device);
}

Queues make_queues(HostModule& h, uint32_t count, uint32_t tasks, uint32_t stride, Scenario s,
                   Tally* t, VictimOrder order, uint32_t sms, bool counter) {
  Queues q;
  q.count = count;
  q.stride = stride;
  q.tasks = tasks;
  q.scenario = s;
  q.tally = t;
  const uint32_t per_queue = (tasks + count - 1) / count;
  if (per_queue > kMaxPerQueue)
    throw ConfigError("work-stealing queues: " + std::to_string(tasks) + " tasks over " +
                      std::to_string(count) + " queues is more than " +
                      std::to_string(kMaxPerQueue) +
                      " per queue (raise `queues` or `task_vertices`)");
  q.words = h.malloc(uint64_t(count) * stride, "ws_queues");
  if (counter && steals(s)) q.empty_count = h.malloc(stride, "ws_empty_count");
  if (order == VictimOrder::Near && steals(s) && sms > 0) {
    // 31 entries and the count fill 32 words: one warp-wide read.
    q.order = order;
    q.sms = sms;
    q.list_cap = std::min<uint32_t>(count, 31);
    q.list_bytes = (4 * (q.list_cap + 1) + stride - 1) / stride * stride;
    q.registry = h.malloc(uint64_t(sms) * q.list_bytes, "ws_near_lists");
  }
  t->runs.assign(tasks, 0);
  return q;
}

void fill(HostModule& h, const Queues& q) {
  for (uint32_t i = 0; i < q.count; ++i) {
    const uint32_t word = pack(0, q.first(i + 1) - q.first(i));
    h.copy_to_device(q.words + Addr(i) * q.stride, &word, sizeof word);
  }
  if (q.empty_count) { // queues without a task are empty from the start
    uint32_t empty = 0;
    for (uint32_t i = 0; i < q.count; ++i)
      empty += q.first(i + 1) == q.first(i);
    h.copy_to_device(q.empty_count, &empty, sizeof empty);
  }
  if (q.registry) {
    const std::vector<uint8_t> zeros(size_t(q.sms) * q.list_bytes, 0);
    h.copy_to_device(q.registry, zeros.data(), zeros.size());
  }
}

std::string check_runs(const Tally& t, uint64_t launches) {
  for (size_t i = 0; i < t.runs.size(); ++i)
    if (t.runs[i] != launches)
      return "work-stealing queues: task " + std::to_string(i) + " ran " +
             std::to_string(t.runs[i]) + " times in " + std::to_string(launches) +
             " launches (lost or run twice)";
  return "";
}

} // namespace tlmgpu::work_steal
