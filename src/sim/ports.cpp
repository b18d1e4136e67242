#include "tlmgpu/sim/ports.hpp"
#include "tlmgpu/invariant.hpp"
#include "tlmgpu/sim/clock.hpp"

#include <algorithm>

using namespace sc_core;

namespace tlmgpu {

Calendar& Calendar::get() {
  // One per simulation context (a process runs one simulation; tests that
  // make a new context get a new calendar).
  static sc_simcontext* owner = nullptr;
  static Calendar* cal = nullptr;
  if (owner != sc_get_curr_simcontext()) {
    owner = sc_get_curr_simcontext();
    cal = new Calendar(); // lives as long as its simulation context: never freed
  }
  return *cal;
}

Calendar::Calendar() {
  sc_spawn_options o;
  o.spawn_method();
  o.set_sensitivity(&wake_);
  o.dont_initialize();
  sc_spawn([this] { run(); }, sc_gen_unique_name("tlmgpu_calendar"), &o);
}

// The bucket of `when`, made (with its heap key) if that time has none yet.
uint32_t Calendar::bucket_at(uint64_t when) {
  size_t slot;
  if (const uint32_t found = at_.find(when, slot); found != U64Index::kNone) return found;
  uint32_t b;
  if (free_.empty()) {
    b = uint32_t(buckets_.size());
    buckets_.emplace_back();
  } else {
    b = free_.back();
    free_.pop_back();
  }
  at_.insert(slot, when, b);
  heap_.push_back(Key{when, b});
  std::push_heap(heap_.begin(), heap_.end(), std::greater<Key>());
  return b;
}

void Calendar::schedule(const sc_time& delay, InlineFn fn) {
  // A step for now while run() works through now's bucket (a wake-up, a
  // block's step this cycle: about a third of all steps) goes behind it;
  // bucket_at would find the same bucket.
  if (running_ != kNotRunning && delay == SC_ZERO_TIME && running_when_ == sim_now().value()) {
    buckets_[running_].push_back(fn);
    ++pending_;
    return;
  }
  const uint64_t when = (sim_now() + delay).value();
  // Wake the calendar exactly when the single heap of (time, order) did: when
  // no step is due at or before `when`. The running bucket is off the heap,
  // but its steps still to run count (a zero-delay step added behind them
  // runs in this activation; a spurious delta wake-up would reorder it
  // against other processes' zero-delay steps).
  const bool later_in_run =
      running_ != kNotRunning && buckets_[running_].size() > running_step_ + 1;
  const bool earliest = !later_in_run && (heap_.empty() || when < heap_.front().when);
  buckets_[bucket_at(when)].push_back(fn);
  ++pending_;
  // sc_event keeps the earliest pending notification, so re-notifying is safe.
  if (earliest) wake_.notify(delay);
}

void Calendar::run() {
  const uint64_t now = sim_now().value();
  while (!heap_.empty() && heap_.front().when <= now) {
    const Key k = heap_.front();
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<Key>());
    heap_.pop_back();
    // A step may schedule more at this time: it finds this bucket (still in
    // at_) and appends, so it runs here after the earlier ones, as it would
    // have in one heap ordered by (time, scheduling order). Indexing, not a
    // reference: a step may add buckets and move them.
    running_ = k.bucket;
    running_when_ = k.when;
    for (size_t i = 0; i < buckets_[k.bucket].size(); ++i) {
      InlineFn fn = buckets_[k.bucket][i];
      running_step_ = i;
      --pending_;
      fn();
    }
    running_ = kNotRunning;
    buckets_[k.bucket].clear();
    at_.erase(k.when);
    free_.push_back(k.bucket);
  }
  if (!heap_.empty()) wake_.notify(time_from_ticks(heap_.front().when - now));
}

TimedQueue::TimedQueue(sc_module_name n) : sc_module(n), cal_(Calendar::get()) {}

TargetPort::TargetPort(sc_module_name n, size_t capacity, Hooks hooks)
    : sc_module(n), socket("socket"), capacity_(capacity), hooks_(std::move(hooks)) {
  socket.bind(*this);
}

tlm::tlm_sync_enum TargetPort::nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_time&) {
  if (ph == tlm::BEGIN_REQ) {
    if (queue_.size() >= capacity_) {
      // Full: keep the request but withhold END_REQ, so the initiator may not
      // send another one until pop() makes room.
      TLMGPU_CHECK(!held_);
      held_ = &t;
      ++backpressured_;
      return tlm::TLM_ACCEPTED;
    }
    queue_.push_back(&t);
    ++accepted_;
    ++g_port_activity;
    for (PortProbe* p : probes_)
      p->request(*this, t);
    if (queue_.size() == 1 && hooks_.on_request) hooks_.on_request();
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  if (ph == tlm::END_RESP) {
    response_open_ = false;
    send_responses();
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_FATAL("tlmgpu/port", "unexpected phase on target port");
  return tlm::TLM_COMPLETED;
}

// Counters live in the port (they are bumped on every request); the stats
// tree reads them through formulas, so publishing costs nothing per access.
void TargetPort::publish(StatGroup& parent) {
  stats_ = std::make_unique<StatGroup>(parent, basename());
  stats_->formula("accepted", "requests", "requests accepted (END_REQ sent)",
                  [this](StatView) { return double(accepted_); });
  stats_->formula("backpressured", "events", "requests whose END_REQ was withheld: queue full",
                  [this](StatView) { return double(backpressured_); });
}

void InitiatorPort::publish(StatGroup& parent) {
  stats_ = std::make_unique<StatGroup>(parent, basename());
  stats_->formula("sent", "requests", "BEGIN_REQs sent",
                  [this](StatView) { return double(sent_); });
  stats_->formula("end_req_waits", "events",
                  "BEGIN_REQs that had to wait for END_REQ (downstream full)",
                  [this](StatView) { return double(end_req_waits_); });
}

void TargetPort::pop() {
  queue_.pop_front();
  if (!queue_.empty()) prefetch_payload(*queue_.front()); // the owner's next request
  if (held_) {
    Payload* t = held_;
    held_ = nullptr;
    queue_.push_back(t);
    ++accepted_;
    for (PortProbe* p : probes_)
      p->request(*this, *t);
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_time d = SC_ZERO_TIME;
    socket->nb_transport_bw(*t, ph, d);
  }
}

void TargetPort::respond(Payload& t, const sc_time& delay) {
  timer_.schedule(delay, [this, &t] {
    ready_responses_.push_back(&t);
    send_responses();
  });
}

void TargetPort::send_responses() {
  while (!response_open_ && !ready_responses_.empty()) {
    Payload* t = ready_responses_.front();
    ready_responses_.pop_front();
    begin_response(*t);
  }
}

void TargetPort::begin_response(Payload& t) {
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_time d = SC_ZERO_TIME;
  for (PortProbe* p : probes_) // before: the initiator may free t on BEGIN_RESP
    p->response(*this, t);
  if (socket->nb_transport_bw(t, ph, d) == tlm::TLM_ACCEPTED) {
    response_open_ = true; // wait for END_RESP
    ++response_waits_;
  }
}

InitiatorPort::InitiatorPort(sc_module_name n, size_t capacity, ResponseFn on_response,
                             std::function<void()> on_space)
    : sc_module(n), socket("socket"), capacity_(capacity), on_response_(std::move(on_response)),
      on_space_(std::move(on_space)) {
  SC_HAS_PROCESS(InitiatorPort);
  socket.bind(*this);
  SC_METHOD(try_send);
  sensitive << retry_;
  dont_initialize();
}

// A request the target may take now goes at once, inside the sender's step:
// BEGIN_REQ is a direct call, as the base protocol allows. Only a request
// that must wait (END_REQ outstanding, or others queued before it) is queued
// and sent by try_send in a later delta. Sending every request through a
// zero-delay notification cost a SystemC delta and a method activation per
// hop (issue 13), and made two senders of one delta arrive in the reverse of
// the order they sent (SystemC runs a delta's notified methods from the
// back). A target that completes the request in the call (TLM_COMPLETED, or
// BEGIN_RESP on the return path) has its response handed to the owner inside
// send(); this simulator's own targets never do (they answer END_REQ and
// respond later), a user's module may.
void InitiatorPort::send(Payload& t) {
  if (!waiting_end_req_ && pending_.empty()) return begin_request(t);
  pending_.push_back(&t);
  if (!waiting_end_req_) retry_.notify(SC_ZERO_TIME);
}

void InitiatorPort::begin_request(Payload& t) {
  ++sent_;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_time d = SC_ZERO_TIME;
  tlm::tlm_sync_enum r = socket->nb_transport_fw(t, ph, d);
  if (r == tlm::TLM_ACCEPTED) {
    waiting_end_req_ = true;
    waiting_ = &t;
    ++end_req_waits_;
  } else if (r == tlm::TLM_COMPLETED || ph == tlm::BEGIN_RESP) {
    ++answered_;
    ++g_port_activity;
    on_response_(t);
  }
}

void InitiatorPort::try_send() {
  bool sent_any = false;
  while (!waiting_end_req_ && !pending_.empty()) {
    Payload* t = pending_.front();
    pending_.pop_front();
    sent_any = true;
    begin_request(*t);
  }
  if (sent_any && on_space_) on_space_();
}

tlm::tlm_sync_enum InitiatorPort::nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_time&) {
  // try_send runs only for requests queued behind this one: a request sent
  // later goes at once (send()), so with none queued there is nothing to do.
  if (ph == tlm::END_REQ) {
    waiting_end_req_ = false;
    if (!pending_.empty()) retry_.notify(SC_ZERO_TIME);
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::BEGIN_RESP) {
    // BEGIN_RESP for the request still waiting for END_REQ implies END_REQ.
    if (waiting_end_req_ && waiting_ == &t) {
      waiting_end_req_ = false;
      if (!pending_.empty()) retry_.notify(SC_ZERO_TIME);
    }
    ++answered_;
    ++g_port_activity;
    on_response_(t);
    ph = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_FATAL("tlmgpu/port", "unexpected phase on initiator port");
  return tlm::TLM_COMPLETED;
}

std::string TargetPort::occupancy() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (!queue_.empty())
    add(std::to_string(queue_.size()) + "/" + std::to_string(capacity_) + " queued");
  if (held_) add("1 held back (queue full)");
  if (!ready_responses_.empty())
    add(std::to_string(ready_responses_.size()) + " responses ready to send");
  if (response_open_) add("a response waiting for END_RESP");
  if (in_calls_) add(std::to_string(in_calls_) + " blocking calls not returned");
  return s;
}

std::string InitiatorPort::occupancy() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  // Accepted or queued requests not yet answered (a request that completes
  // in its forward call counts as answered at once).
  if (sent_ > answered_) add(std::to_string(sent_ - answered_) + " unanswered");
  if (!pending_.empty()) add(std::to_string(pending_.size()) + " queued to send");
  if (waiting_end_req_) add("waiting for END_REQ");
  if (in_calls_) add(std::to_string(in_calls_) + " blocking calls not returned");
  return s;
}

namespace {

void collect(const sc_object& o, std::vector<std::string>& out) {
  std::string s;
  if (auto* t = dynamic_cast<const TargetPort*>(&o))
    s = t->occupancy();
  else if (auto* i = dynamic_cast<const InitiatorPort*>(&o))
    s = i->occupancy();
  if (!s.empty()) out.push_back(std::string(o.name()) + ": " + s);
  for (const sc_object* child : o.get_child_objects())
    collect(*child, out);
}

} // namespace

std::string port_report(const sc_object& root, size_t max_ports) {
  std::vector<std::string> busy;
  collect(root, busy);
  std::string s;
  for (size_t i = 0; i < busy.size() && i < max_ports; ++i)
    s += (i ? "; " : "") + busy[i];
  if (busy.size() > max_ports)
    s += "; ... and " + std::to_string(busy.size() - max_ports) + " more ports";
  return s.empty() ? "no port holds a request" : s;
}

namespace {
void walk(sc_object& o, const std::function<PortProbe*(TargetPort&)>& pick) {
  if (auto* port = dynamic_cast<TargetPort*>(&o))
    if (PortProbe* p = pick(*port)) port->attach(p);
  for (sc_object* child : o.get_child_objects())
    walk(*child, pick);
}
} // namespace

void attach_port_probes(const std::function<PortProbe*(TargetPort&)>& pick, sc_object* root) {
  if (root) return walk(*root, pick);
  for (sc_object* top : sc_get_top_level_objects())
    walk(*top, pick);
}

} // namespace tlmgpu
