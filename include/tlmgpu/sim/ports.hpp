// The plumbing every module shares, so a module's own code is only its
// behaviour (house style rule 1):
//
//  * TargetPort: one target socket that serves both timing styles. LT and
//    functional calls arrive as b_transport and go straight to the owner.
//    AT calls arrive as 4-phase nb_transport into a bounded request queue; when
//    the queue is full END_REQ is withheld (backpressure, counted), and
//    respond() sends BEGIN_RESP at a chosen time, one response at a time.
//  * InitiatorPort: one initiator socket with a bounded send queue. It obeys
//    the base protocol's request exclusion (no new BEGIN_REQ before END_REQ)
//    and hands BEGIN_RESP to the owner; initiators always accept a response at
//    once (responses are not back-pressured; documented in docs/timing.md).
//  * TimedQueue: "run this at cycle X" for a module's internal steps.
#pragma once

#include <systemc>
#include <tlm>

#include "tlmgpu/sim/port_probe.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/u64_index.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <new>
#include <queue>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

using Payload = tlm::tlm_generic_payload;

// A void() callable kept inline: module callbacks capture a few pointers and
// integers, and std::function would allocate for anything over 16 bytes on
// every scheduled step.
class InlineFn {
public:
  InlineFn() = default;
  template <class F>
  InlineFn(F f) { // NOLINT: implicit on purpose, like std::function
    static_assert(sizeof(F) <= sizeof(buf_), "capture less (a pointer to state)");
    static_assert(std::is_trivially_copyable_v<F> && std::is_trivially_destructible_v<F>,
                  "capture pointers, references and integers only");
    new (buf_) F(f);
    call_ = [](void* p) { (*static_cast<F*>(p))(); };
  }
  void operator()() { call_(buf_); }

private:
  alignas(void*) unsigned char buf_[40];
  void (*call_)(void*) = nullptr;
};

// One calendar for the whole simulation: every TimedQueue's steps go into
// one heap ordered by (time, scheduling order), and one SystemC method with
// one event runs whatever is due. Before, each module (and each port) had
// its own method and event, so every step was a timed notification of its
// own in SystemC's queue (issue 13: ~10 per line request, 15-20 % of AT).
// Steps of different modules due at the same time now run in the order they
// were scheduled, in one activation, instead of in SystemC's process order.
class Calendar {
public:
  static Calendar& get(); // made on first use, during elaboration
  void schedule(const sc_core::sc_time& delay, InlineFn fn);
  size_t size() const { return pending_; }

private:
  Calendar();
  // Steps due at the same time share a bucket, run in the order they were
  // scheduled, and the heap orders only the distinct times: most steps land
  // on a time that already has some (clock edges shared by many modules), so
  // they cost an append instead of a heap push and pop (issue 13: the heap of
  // all steps was the top item of AT's profile, 7-9 %).
  struct Key {
    uint64_t when; // sc_time value; one key per distinct time
    uint32_t bucket;
    bool operator>(const Key& o) const { return when > o.when; }
  };
  void run();
  uint32_t bucket_at(uint64_t when);
  std::vector<Key> heap_;                      // min-heap by time
  U64Index at_;                                // time -> its bucket
  std::vector<std::vector<InlineFn>> buckets_; // kept with their capacity for reuse
  std::vector<uint32_t> free_;
  size_t pending_ = 0;
  // While run() works through a bucket: which one, and the step running.
  static constexpr uint32_t kNotRunning = ~0u;
  uint32_t running_ = kNotRunning;
  size_t running_step_ = 0;
  uint64_t running_when_ = 0; // the running bucket's time
  sc_core::sc_event wake_;
};

// "Run this at now + delay" for a module's internal steps (a handle on the
// Calendar; a module keeps one so that its steps read as its own).
class TimedQueue : public sc_core::sc_module {
public:
  explicit TimedQueue(sc_core::sc_module_name n);
  // Runs fn at now + delay; equal times run in scheduling order (determinism).
  void schedule(const sc_core::sc_time& delay, InlineFn fn) { cal_.schedule(delay, fn); }

private:
  Calendar& cal_;
};

// Starts loading a queued request's first 256 bytes, where a block reads
// first (the address, and for a GpuPayload its access and route). A request
// that waited in a queue has left the host's caches when its block takes it:
// on the AT histogram that first load was half of the crossbar's time and
// most of the L2's request handling (issue 13). A prefetch never faults, so
// this holds for any payload type.
inline void prefetch_payload(const Payload& t) {
  const char* p = reinterpret_cast<const char*>(&t);
  for (int line = 0; line < 4; ++line)
    __builtin_prefetch(p + 64 * line);
}

// Requests accepted or answered by any port of the process, ever: the
// deadlock watchdog's measure of progress (models/gpu/gpu_watchdog.cpp).
// One counter for all devices: a node's GPU that is stuck is found once the
// others stop moving too.
inline uint64_t g_port_activity = 0;

// The ports implement the TLM interfaces themselves and bind plain sockets
// to them: tlm_utils' simple sockets add a forwarding object per socket and,
// on every backward call, a map lookup for blocking calls they adapt to
// nb_transport, which these ports never need (issue 13: 2.4 % of AT).
class TargetPort : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
public:
  struct Hooks {
    std::function<void(Payload&, sc_core::sc_time&)> b_transport; // LT + functional
    std::function<unsigned(Payload&)> debug;                      // host/debug access
    std::function<void()> on_request;                             // AT: queue became non-empty
  };
  tlm::tlm_target_socket<> socket;

  TargetPort(sc_core::sc_module_name n, size_t capacity, Hooks hooks);

  // AT request queue (owner side).
  bool has_request() const { return !queue_.empty(); }
  Payload& front() { return *queue_.front(); }
  void pop(); // frees a slot: a request held back by backpressure gets END_REQ now
  size_t queued() const { return queue_.size(); }
  // AT: send BEGIN_RESP for `t` after `delay`.
  void respond(Payload& t, const sc_core::sc_time& delay);

  uint64_t accepted() const { return accepted_; }
  uint64_t backpressured() const { return backpressured_; }
  uint64_t response_waits() const { return response_waits_; }
  // Declares this port's counters under `parent` (group named like the port).
  void publish(StatGroup& parent);
  // Observers of this port's requests and responses (port_probe.hpp).
  void attach(PortProbe* p) { probes_.push_back(p); }
  // What this port holds, for deadlock reports: "" when it holds nothing,
  // else e.g. "2/4 queued, 1 held back (queue full), 1 response waiting".
  std::string occupancy() const;

private:
  void b_transport(Payload& t, sc_core::sc_time& d) override {
    ++g_port_activity;
    for (PortProbe* p : probes_)
      p->request(*this, t);
    ++in_calls_; // lt: a blocking call that never returns is a request that waits here
    hooks_.b_transport(t, d);
    --in_calls_;
    ++g_port_activity;
    for (PortProbe* p : probes_)
      p->response(*this, t);
  }
  unsigned transport_dbg(Payload& t) override { return hooks_.debug(t); }
  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override;
  bool get_direct_mem_ptr(Payload&, tlm::tlm_dmi&) override { return false; } // no DMI
  void send_responses();
  void begin_response(Payload& t); // BEGIN_RESP now; END_RESP may be awaited

  size_t capacity_;
  Hooks hooks_;
  std::deque<Payload*> queue_;
  Payload* held_ = nullptr; // request whose END_REQ is withheld
  std::deque<Payload*> ready_responses_;
  bool response_open_ = false; // BEGIN_RESP sent, END_RESP not yet seen
  TimedQueue timer_{"timer"};
  uint64_t accepted_ = 0, backpressured_ = 0, response_waits_ = 0;
  uint32_t in_calls_ = 0;
  std::unique_ptr<StatGroup> stats_;
  std::vector<PortProbe*> probes_;
};

class InitiatorPort : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
public:
  using ResponseFn = std::function<void(Payload&)>;
  tlm::tlm_initiator_socket<> socket;

  // send() passes a request on at once when it need not wait; on_space runs
  // (in a later delta) whenever a queued request left the send queue.
  InitiatorPort(sc_core::sc_module_name n, size_t capacity, ResponseFn on_response,
                std::function<void()> on_space = {});

  bool can_send() const { return pending_.size() < capacity_; }
  void send(Payload& t); // AT; caller checked can_send()
  void b_transport(Payload& t, sc_core::sc_time& d) {
    ++in_calls_; // a call that never returns is a request stuck below (deadlock reports)
    socket->b_transport(t, d);
    --in_calls_;
    ++g_port_activity;
  }
  unsigned debug(Payload& t) { return socket->transport_dbg(t); }

  uint64_t sent() const { return sent_; }
  uint64_t end_req_waits() const { return end_req_waits_; }
  bool idle() const { return pending_.empty() && !waiting_end_req_; }
  void publish(StatGroup& parent);
  // For deadlock reports: "" when nothing is queued or unanswered, else e.g.
  // "3 unanswered, 2 queued to send, waiting for END_REQ".
  std::string occupancy() const;

private:
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {} // no DMI
  void try_send();
  void begin_request(Payload& t); // BEGIN_REQ now; END_REQ or a response may come back

  size_t capacity_;
  ResponseFn on_response_;
  std::function<void()> on_space_;
  std::deque<Payload*> pending_;
  bool waiting_end_req_ = false;
  Payload* waiting_ = nullptr;
  sc_core::sc_event retry_;
  uint64_t sent_ = 0, end_req_waits_ = 0, answered_ = 0;
  uint32_t in_calls_ = 0;
  std::unique_ptr<StatGroup> stats_;
};

// The ports below `root` that hold requests (TargetPort/InitiatorPort::
// occupancy), one "; "-separated entry per port, at most `max_ports`.
std::string port_report(const sc_core::sc_object& root, size_t max_ports);

} // namespace tlmgpu
