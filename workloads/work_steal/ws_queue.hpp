// The work-stealing task queues of the sRSP paper's benchmarks (seed-002
// §1.5, §4.2): one queue per work-group (CTA), filled before the launch with
// a contiguous range of task ids; the owning CTA takes tasks at the tail,
// and, in the scenarios that steal, a CTA whose own queue is empty steals at
// the head of another. Nothing is enqueued during a kernel, so a queue only
// shrinks and a CTA that finds every queue empty can exit. One thread per
// CTA calls next_task (ws_app.cpp hands the task to the other warps).
//
// A queue is one 32-bit word in device memory, head in the low and tail in
// the high 16 bits, one line apart from the next queue's. Owner and thieves
// both change it with a compare-and-swap of the whole word, so a dequeue and
// a steal racing for the last task cannot both win (the lock-free deque of
// Cederman and Tsigas needs a CAS on head only for that last task because it
// keeps head and tail in separate words; with one word there is no
// store-load race to reason about). The scopes are the scenario's
// (seed-002 §1.9):
//   baseline    no stealing; the owner at device scope (acquire/release on
//               every dequeue: the reference);
//   steal-only  owner and thieves at device scope;
//   scope-only  no stealing; the owner at CTA scope;
//   rsp         the owner at CTA scope, thieves with remote-scope-promoted
//               reads (acquire) and CAS (acq_rel); the L1 policy l1.rsp
//               (brsp, srsp) implements the promotion.
// A thief reads a victim's word (an atomic OR of 0 with acquire order) and
// claims its head with a CAS; a failed CAS returns the word to retry with.
//
// Victim order (`victims`): ring scans the other queues round robin from the
// last victim that had work; near first tries the queues of CTAs on the
// thief's own SM (sRSPOpt's modified benchmarks, seed-002 §2.6 item 3: with
// the owner on the same CU a remote operation can run at CTA scope). Which
// CTAs share an SM is known only at run time (the dispatcher places them),
// so each CTA registers its queue under its SM id (Warp::sm_id, PTX %smid)
// in a per-SM list in device memory, with device-scope atomics, when it
// starts; a thief reads its SM's list once, when its own queue runs empty.
//
// Termination (`termination`): scan (a thief that finds every other queue
// empty exits, so at the end of a kernel each CTA probes every queue once:
// count x (count - 1) promoted reads) or counter (the CAS that takes a
// queue's last task adds one to a device-scope count of empty queues; a
// thief reads it before scanning and every 8 probes and exits once it
// equals the queues).
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "tlmgpu/stats.hpp"

#include <string>
#include <vector>

namespace tlmgpu {

class HostModule;

namespace work_steal {

enum class Scenario : uint8_t { Baseline, StealOnly, ScopeOnly, Rsp };
enum class VictimOrder : uint8_t { Ring, Near };

// ConfigError naming the argument for anything but the four names above.
Scenario parse_scenario(const std::string& s);
const char* scenario_name(Scenario s);
// termination: scan (false) or counter (true); ConfigError naming the
// argument otherwise.
bool parse_termination(const std::string& s);
// ConfigError naming the argument for anything but ring and near.
VictimOrder parse_victim_order(const std::string& s);
inline bool steals(Scenario s) {
  return s == Scenario::StealOnly || s == Scenario::Rsp;
}
inline Scope owner_scope(Scenario s) {
  return s == Scenario::Baseline || s == Scenario::StealOnly ? Scope::Device : Scope::Cta;
}

// What the queue operations did. The kernels run in this process, so they
// count here directly (instrumentation, no simulated traffic); `runs` counts
// how often each task was taken, which check_runs compares with the launches.
struct Tally {
  Counter* owner_takes = nullptr;
  Counter* steals = nullptr;
  Counter* near_steals = nullptr;  // steals from a queue whose CTA shares the thief's SM
  Counter* probes = nullptr;       // thieves' reads of other queues' words
  Counter* count_reads = nullptr;  // termination=counter: reads of the empty-queue count
  Counter* cas_failures = nullptr; // owner or thief CAS that lost a race
  std::vector<uint32_t> runs;      // per task
};

struct Queues {
  Addr words = 0;        // queue q's word at words + q * stride
  uint32_t count = 0;    // queues = CTAs of the kernel
  uint32_t stride = 128; // bytes (the platform's line)
  uint32_t tasks = 0;    // task ids [first(q), first(q + 1)) start in queue q
  Scenario scenario = Scenario::Baseline;
  Tally* tally = nullptr;
  // victims = near: SM s's list at registry + s * list_bytes, a count word
  // then up to list_cap entries (queue id + 1; 0 = not yet written).
  VictimOrder order = VictimOrder::Ring;
  Addr registry = 0;
  Addr empty_count = 0; // termination=counter: queues whose last task was taken
  uint32_t sms = 0, list_cap = 0, list_bytes = 0;
  uint32_t first(uint32_t q) const { return uint32_t(uint64_t(tasks) * q / count); }
  Addr list_count(uint32_t sm) const { return registry + Addr(sm) * list_bytes; }
};

// The calling thread's state across next_task calls.
struct Cursor {
  uint32_t home = 0;   // its CTA's queue
  uint32_t victim = 0; // where the next steal starts (the last victim that had work)
  bool home_empty = false;
  // victims = near: the queues registered on this SM not yet seen empty,
  // read from the registry at the first steal (near_read).
  std::vector<uint32_t> near, near_empty;
  bool near_read = false;
};

inline constexpr int64_t kNoTask = -1;

// The next task id for the caller's CTA (lane 0 of w does the queue
// accesses), or kNoTask once its own queue and (if the scenario steals)
// every other queue were seen empty.
WarpTask next_task(Warp& w, const Queues& q, Cursor& c, int64_t& task);
// victims = near: lane 0 of w enters the CTA's queue in its SM's list (call
// once per CTA, before its first next_task); nothing for ring.
WarpTask register_near(Warp& w, const Queues& q, uint32_t home);

// Host side: allocates the words (one line each) for `tasks` tasks over
// `count` queues; fill() writes the initial head and tail (before every
// launch). Throws ConfigError when a queue would hold more than 65,535 tasks.
// `sms` sizes the registry of victims = near.
Queues make_queues(HostModule& h, uint32_t count, uint32_t tasks, uint32_t stride, Scenario s,
                   Tally* t, VictimOrder order = VictimOrder::Ring, uint32_t sms = 0,
                   bool counter = false);
void fill(HostModule& h, const Queues& q);

// "" when every task ran exactly `launches` times, else which one did not.
std::string check_runs(const Tally& t, uint64_t launches);

} // namespace work_steal
} // namespace tlmgpu
