// The litmus suite of the scoped-cache protocols (seed-002 §6.7 C): small
// programs of a few wavefronts on chosen CUs, each run over many seeded
// schedules (message and step jitter) on a fresh ScopedSystem, with an
// oracle naming forbidden outcomes. `tlmgpu litmus` prints the table.
#pragma once

#include "models/scoped/scoped_system.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tlmgpu::scoped {

struct LitmusState; // registers and oracle notes of one run (litmus.cpp)

// What a litmus wavefront can do: the scoped instruction set, one lane.
class Wave {
public:
  Wave(ScopedSystem& sys, uint32_t cu, uint32_t id, LitmusState& st);
  uint32_t id() const { return id_; }
  ScopedSystem& sys() { return sys_; }
  LitmusState& state() { return st_; }

  Task<uint32_t> ld(Addr a);
  Task<void> st(Addr a, uint32_t v);
  Task<uint32_t> op(Kind k, Order o, Scope s, bool remote, Addr a, uint32_t x = 0, uint32_t y = 0);
  Task<uint32_t> ld_acq_wg(Addr a) { return op(Kind::Ld, Order::Acq, Scope::Wg, false, a); }
  Task<uint32_t> st_rel_wg(Addr a, uint32_t v) {
    return op(Kind::St, Order::Rel, Scope::Wg, false, a, v);
  }
  Task<uint32_t> cas_acq_wg(Addr a, uint32_t e, uint32_t d) {
    return op(Kind::Cas, Order::Acq, Scope::Wg, false, a, e, d);
  }
  Task<uint32_t> ld_rem_acq(Addr a) { return op(Kind::Ld, Order::Acq, Scope::Cmp, true, a); }
  Task<uint32_t> cas_rem_acq(Addr a, uint32_t e, uint32_t d) {
    return op(Kind::Cas, Order::Acq, Scope::Cmp, true, a, e, d);
  }
  Task<uint32_t> st_rem_rel(Addr a, uint32_t v) {
    return op(Kind::St, Order::Rel, Scope::Cmp, true, a, v);
  }
  Task<uint32_t> cas_rem_ar(Addr a, uint32_t e, uint32_t d) {
    return op(Kind::Cas, Order::AcqRel, Scope::Cmp, true, a, e, d);
  }
  // Repeats `attempt()` (an operation returning Task<uint32_t>) until it
  // returns `want` or `tries` attempts are used, pausing up to `pause`
  // cycles after each miss; returns the last value. Every spin of the suite
  // is bounded so a lost update is an outcome, not a hang.
  template <class F>
  Task<uint32_t> spin(F attempt, uint32_t want, uint32_t tries, uint32_t pause) {
    uint32_t v = co_await attempt();
    for (uint32_t i = 1; i < tries && v != want; ++i) {
      co_await think(pause);
      v = co_await attempt();
    }
    co_return v;
  }
  // Waits a few cycles (seeded): the schedule varies between runs.
  Task<void> think(uint32_t max = 8);
  Task<void> sleep(uint64_t cycles);

private:
  ScopedSystem& sys_;
  ScopedL1& l1_;
  uint32_t id_;
  LitmusState& st_;
};

struct LitmusState {
  std::map<std::string, uint32_t> reg;
  std::vector<std::vector<uint32_t>> ran; // tasks per wave (work stealing)
  bool owner_in_cs = false, cs_overlap = false;
  uint32_t inside = 0; // agents in the critical section
};

struct LitmusTest {
  std::string name, what, forbidden;
  uint32_t min_cus = 2;
  std::function<void(ScopedSpec&)> tune;    // test-specific parameters
  std::function<void(ScopedSystem&)> setup; // initial memory
  std::vector<std::pair<uint32_t, std::function<Task<void>(Wave&)>>> waves; // (cu, body)
  // The outcome's name and whether it is forbidden; memory is final (every
  // L1 written back at the kernel end).
  std::function<std::pair<std::string, bool>(ScopedSystem&, LitmusState&)> check;
  bool opt_only = false; // meaningful only with srsp_opt
};

const std::vector<LitmusTest>& litmus_suite();

struct LitmusResult {
  std::string test, variant;
  uint64_t runs = 0, forbidden = 0;
  std::map<std::string, uint64_t> outcomes;
  uint64_t first_forbidden_seed = 0;
  std::string first_forbidden;
  uint64_t messages = 0, remote_cycles = 0, cycles = 0;
};

// Runs `t` `seeds` times (seeds seed0, seed0+1, ...). A run that does not
// finish by `limit` cycles is the outcome "hang" (forbidden: every test
// must terminate); an exception from the protocol is "error: ...".
LitmusResult run_litmus(const LitmusTest& t, ScopedSpec spec, const Mutations& mut, uint32_t seeds,
                        uint64_t seed0, uint64_t limit = 2'000'000);

} // namespace tlmgpu::scoped
