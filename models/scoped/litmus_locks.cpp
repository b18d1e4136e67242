// The lock-based litmus tests (seed-002 §6.7 C): the asymmetric lock
// counter, the owner holding the lock in its L1, lock hand-over races (P2,
// P3) and the work-stealing queue.
#include "models/scoped/litmus_tests.hpp"

namespace tlmgpu::scoped::litmus_detail {

namespace {

// The owner's critical section and the thieves': C counts entries, and the
// oracle watches who is inside (two at once is forbidden even if the count
// happens to survive).
Task<void> critical_section(Wave& w) {
  auto& s = w.state();
  if (++s.inside > 1) s.cs_overlap = true;
  uint32_t c = co_await w.ld(C);
  co_await w.st(C, c + 1);
  --s.inside;
}

} // namespace

LitmusTest lock_counter() {
  constexpr uint32_t kOwner = 12, kThief = 3, kThieves = 2;
  LitmusTest t;
  t.name = "lock_counter";
  t.what = "asymmetric lock: owner at wg scope, two thieves with remote acquire/release";
  t.forbidden = "two agents inside at once, or final C != number of critical sections (" +
                std::to_string(kOwner + kThief * kThieves) + ")";
  t.min_cus = 3;
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       for (uint32_t n = 0; n < kOwner; ++n) {
                         co_await lock_wg(w, 8);
                         co_await critical_section(w);
                         co_await w.st_rel_wg(L, 0);
                       }
                     }});
  for (uint32_t k = 1; k <= kThieves; ++k)
    t.waves.push_back({k, [](Wave& w) -> Task<void> {
                         for (uint32_t n = 0; n < kThief; ++n) {
                           co_await lock_remote(w, 1, 16);
                           co_await critical_section(w);
                           co_await w.st_rem_rel(L, 0);
                         }
                       }});
  t.check = [](ScopedSystem& sys, LitmusState& s) {
    uint32_t c = sys.peek(C);
    std::string o = "C=" + std::to_string(c) + (s.cs_overlap ? " overlap" : "");
    return std::pair{o, s.cs_overlap || c != kOwner + kThief * kThieves};
  };
  return t;
}

// P2: the owner re-acquires right after a thief's selective flush took its
// line; with the L2 lock taken late, its fill can read L=0 before the
// thief's CAS lands.
LitmusTest lock_handoff() {
  constexpr uint32_t kOwner = 30, kThief = 10;
  LitmusTest t;
  t.name = "lock_handoff";
  t.what = "owner re-acquires often with pauses, a thief tries constantly (P2)";
  t.forbidden = "two agents inside at once, or a lost increment";
  t.tune = [](ScopedSpec& sp) { sp.jitter_cycles = 24; }; // wider windows: P2 shows
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       for (uint32_t n = 0; n < kOwner; ++n) {
                         co_await lock_wg(w, 4);
                         co_await critical_section(w);
                         co_await w.st_rel_wg(L, 0);
                         co_await w.think(120);
                       }
                     }});
  t.waves.push_back({1, [](Wave& w) -> Task<void> {
                       for (uint32_t n = 0; n < kThief; ++n) {
                         co_await lock_remote(w, 1, 4);
                         co_await critical_section(w);
                         co_await w.st_rem_rel(L, 0);
                       }
                     }});
  t.check = [](ScopedSystem& sys, LitmusState& s) {
    uint32_t c = sys.peek(C);
    std::string o = "C=" + std::to_string(c) + (s.cs_overlap ? " overlap" : "");
    return std::pair{o, s.cs_overlap || c != kOwner + kThief};
  };
  return t;
}

// P3: after a remote release the owner's copy of L keeps being evicted (a
// 3-line L1), so its spinning CAS refetches L; the new value must not reach
// it before its PA-TBL holds L, or it enters with the stale Y it cached.
LitmusTest release_refetch() {
  LitmusTest t;
  t.name = "release_refetch";
  t.what = "owner spins on L with its copy evicted each round; a thief releases L with Y=2 (P3)";
  t.forbidden = "the owner acquires L and reads Y != 2";
  t.tune = [](ScopedSpec& s) { s.l1_lines = 3; };
  t.setup = [](ScopedSystem& s) { s.poke(L, 1); };
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       uint32_t y = 0;
                       for (uint32_t i = 0; i < 4 * kSpin; ++i) {
                         if (co_await w.cas_acq_wg(L, 0, 1) == 0) {
                           w.state().reg["got"] = 1;
                           break;
                         }
                         // LRU: Y stays, L is the oldest when Z comes in.
                         y = co_await w.ld(Y);
                         co_await w.ld(X);
                         y = co_await w.ld(Y);
                         co_await w.ld(Z);
                       }
                       (void)y;
                       w.state().reg["y"] = co_await w.ld(Y);
                     }});
  t.waves.push_back({1, [](Wave& w) -> Task<void> {
                       co_await w.sleep(150 + w.sys().rng().delay(300));
                       co_await w.st(Y, 2);
                       co_await w.st_rem_rel(L, 0);
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) {
    return std::pair{kv(s), s.reg["got"] != 1 || s.reg["y"] != 2};
  };
  return t;
}

LitmusTest owner_holds_lock() {
  LitmusTest t;
  t.name = "owner_holds_lock";
  t.what = "the owner holds the lock only in its L1 (dirty L=1) while a thief asks for it";
  t.forbidden = "the thief enters while the owner is inside";
  t.tune = [](ScopedSpec& sp) { sp.jitter_cycles = 24; };
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await lock_wg(w, 32);
                       w.state().owner_in_cs = true;
                       co_await w.sleep(400 + w.sys().rng().delay(400));
                       w.state().owner_in_cs = false;
                       co_await w.st_rel_wg(L, 0);
                     }});
  t.waves.push_back({1, [](Wave& w) -> Task<void> {
                       co_await w.sleep(w.sys().rng().delay(300));
                       co_await lock_remote(w, 2, 64);
                       if (w.state().owner_in_cs) w.state().cs_overlap = true;
                       co_await w.st_rem_rel(L, 0);
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) {
    return std::pair{std::string(s.cs_overlap ? "overlap" : "exclusive"), s.cs_overlap};
  };
  return t;
}

// A pre-filled task queue under an asymmetric lock: the owner pops at the
// tail with wg-scope synchronization, thieves steal at the head with remote
// operations. Each task writes its result; the oracle counts executions.
LitmusTest work_stealing() {
  constexpr uint32_t kTasks = 24, kThieves = 3;
  LitmusTest t;
  t.name = "work_stealing";
  t.what = "work-stealing queue (24 tasks, owner + 3 thieves), lock-based";
  t.forbidden = "a task run 0 or 2+ times, or a wrong result";
  t.min_cus = 4;
  t.setup = [](ScopedSystem& s) {
    s.poke(H, 0);
    s.poke(T, kTasks);
    for (uint32_t i = 0; i < kTasks; ++i)
      s.poke(Q + 4 * i, 100 + i);
  };
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       for (;;) {
                         co_await lock_wg(w, 32);
                         uint32_t h = co_await w.ld(H), tl = co_await w.ld(T);
                         if (tl <= h) {
                           co_await w.st_rel_wg(L, 0);
                           co_return;
                         }
                         co_await w.st(T, tl - 1);
                         uint32_t task = co_await w.ld(Q + 4 * (tl - 1));
                         co_await w.st_rel_wg(L, 0);
                         co_await w.st(R + 4 * (task - 100), 3 * task + 1);
                         w.state().ran[w.id()].push_back(task);
                         co_await w.think(40);
                       }
                     }});
  for (uint32_t k = 1; k <= kThieves; ++k)
    t.waves.push_back({k, [](Wave& w) -> Task<void> {
                         for (;;) {
                           co_await lock_remote(w, 1, 64);
                           uint32_t h = co_await w.ld(H), tl = co_await w.ld(T);
                           if (tl <= h) {
                             co_await w.st_rem_rel(L, 0);
                             co_return;
                           }
                           uint32_t task = co_await w.ld(Q + 4 * h);
                           co_await w.st(H, h + 1);
                           co_await w.st_rem_rel(L, 0);
                           co_await w.st(R + 4 * (task - 100), 3 * task + 1);
                           w.state().ran[w.id()].push_back(task);
                           co_await w.think(40);
                         }
                       }});
  t.check = [](ScopedSystem& sys, LitmusState& s) {
    std::vector<uint32_t> runs(kTasks, 0);
    uint32_t stolen = 0;
    for (size_t i = 0; i < s.ran.size(); ++i)
      for (uint32_t task : s.ran[i]) {
        if (task >= 100 && task < 100 + kTasks) ++runs[task - 100];
        if (i) ++stolen;
      }
    uint32_t lost = 0, twice = 0, wrong = 0;
    for (uint32_t i = 0; i < kTasks; ++i) {
      lost += runs[i] == 0;
      twice += runs[i] > 1;
      wrong += sys.peek(R + 4 * i) != 3 * (100 + i) + 1;
    }
    bool bad = lost || twice || wrong;
    std::string o = bad ? "lost=" + std::to_string(lost) + " twice=" + std::to_string(twice) +
                              " wrong=" + std::to_string(wrong)
                        : std::string(stolen ? "ok (stolen)" : "ok (none stolen)");
    return std::pair{o, bad};
  };
  return t;
}

} // namespace tlmgpu::scoped::litmus_detail
