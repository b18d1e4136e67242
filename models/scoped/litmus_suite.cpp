// The litmus tests of seed-002 §6.7 C. Variables live on separate lines
// unless a test says otherwise; every spin is bounded so that a lost
// update shows as an outcome instead of a hang.
#include "models/scoped/litmus_tests.hpp"

namespace tlmgpu::scoped {

std::string litmus_detail::kv(const LitmusState& s) {
  std::string o;
  for (const auto& [k, v] : s.reg)
    o += (o.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return o;
}

// (No `co_await` in the loop condition: that form died with SIGILL here under
// GCC 12 -O3; the cause is not isolated.)
Task<void> litmus_detail::lock_wg(Wave& w, uint32_t pause) {
  for (;;) {
    uint32_t got = co_await w.cas_acq_wg(L, 0, 1);
    if (got == 0) co_return;
    co_await w.think(pause);
  }
}

Task<void> litmus_detail::lock_remote(Wave& w, uint32_t v, uint32_t pause) {
  for (;;) {
    uint32_t got = co_await w.cas_rem_acq(L, 0, v);
    if (got == 0) co_return;
    co_await w.think(pause);
  }
}

using namespace litmus_detail;

namespace {

// Owner: Y=1 then a wg release of F. Remote: spins on a remote acquire of F,
// then reads Y. `fill` distinct lines written before Y (sFIFO wrap) or after
// the release (overflow pops the release's entry).
LitmusTest message_passing(std::string name, std::string what, uint32_t fill_before,
                           uint32_t fill_after) {
  LitmusTest t;
  t.name = std::move(name);
  t.what = std::move(what);
  t.forbidden = "the remote sees F=1 and then Y=0, or never sees F=1";
  t.waves.push_back({0, [fill_before, fill_after](Wave& w) -> Task<void> {
                       for (uint32_t i = 0; i < fill_before; ++i)
                         co_await w.st(FILL + 64 * i, i + 1);
                       co_await w.st(Y, 1);
                       co_await w.st_rel_wg(F, 1);
                       for (uint32_t i = 0; i < fill_after; ++i)
                         co_await w.st(FILL + 0x4000 + 64 * i, i + 1);
                     }});
  t.waves.push_back({1, [](Wave& w) -> Task<void> {
                       w.state().reg["f"] =
                           co_await w.spin([&] { return w.ld_rem_acq(F); }, 1, kSpin, 64);
                       w.state().reg["y"] = co_await w.ld(Y);
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) {
    return std::pair{kv(s), s.reg["f"] != 1 || s.reg["y"] != 1};
  };
  return t;
}

LitmusTest mp_wg() {
  LitmusTest t;
  t.name = "mp_wg";
  t.what = "message passing between two wavefronts of one work-group, wg scope";
  t.forbidden = "F=1 then Y=0";
  t.min_cus = 1;
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await w.st(Y, 1);
                       co_await w.st_rel_wg(F, 1);
                     }});
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       w.state().reg["f"] =
                           co_await w.spin([&] { return w.ld_acq_wg(F); }, 1, kSpin, 0);
                       w.state().reg["y"] = co_await w.ld(Y);
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) {
    return std::pair{kv(s), s.reg["f"] != 1 || s.reg["y"] != 1};
  };
  return t;
}

LitmusTest mp_remote_rel() {
  LitmusTest t;
  t.name = "mp_remote_rel";
  t.what = "a remote release reaches an owner that cached the old data (deferred invalidation)";
  t.forbidden = "the owner sees F=1 and then Y!=2, or never sees F=1";
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await w.ld(Y); // the old Y in the owner's L1
                       w.state().reg["f"] =
                           co_await w.spin([&] { return w.ld_acq_wg(F); }, 1, kSpin, 0);
                       w.state().reg["y"] = co_await w.ld(Y);
                     }});
  t.waves.push_back({1, [](Wave& w) -> Task<void> {
                       co_await w.sleep(100);
                       co_await w.st(Y, 2);
                       co_await w.st_rem_rel(F, 1);
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) {
    return std::pair{kv(s), s.reg["f"] != 1 || s.reg["y"] != 2};
  };
  return t;
}

LitmusTest three_party() {
  LitmusTest t;
  t.name = "three_party";
  t.what = "owner hands L to a thief, the thief back to a second wavefront of the owner's group";
  t.forbidden = "the thief reads X=0, or the owner's second wavefront reads Z=0 or X=0";
  t.setup = [](ScopedSystem& s) { s.poke(L, 1); };
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await w.st(X, 1);
                       co_await w.st_rel_wg(L, 0);
                     }});
  t.waves.push_back({1, [](Wave& w) -> Task<void> {
                       co_await w.spin([&] { return w.cas_rem_acq(L, 0, 2); }, 0, kSpin, 64);
                       w.state().reg["t_x"] = co_await w.ld(X);
                       co_await w.st(Z, 1);
                       co_await w.st_rem_rel(L, 3);
                     }});
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       uint32_t l = 0;
                       for (uint32_t i = 0; i < 4 * kSpin && l != 3; ++i)
                         l = co_await w.ld_acq_wg(L);
                       w.state().reg["o_l"] = l;
                       w.state().reg["o_z"] = co_await w.ld(Z);
                       w.state().reg["o_x"] = co_await w.ld(X);
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) {
    return std::pair{kv(s), s.reg["t_x"] != 1 || s.reg["o_l"] != 3 || s.reg["o_z"] != 1 ||
                                s.reg["o_x"] != 1};
  };
  return t;
}

LitmusTest read_own_write() {
  LitmusTest t;
  t.name = "read_own_write";
  t.what = "a promoted acquire sees the owner's own earlier release (P5)";
  t.forbidden = "the owner's acquire returns anything but 5";
  t.waves.push_back({1, [](Wave& w) -> Task<void> { co_await w.st_rem_rel(L, 1); }});
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await w.sleep(600); // the remote release has armed the PA-TBL
                       co_await w.st_rel_wg(L, 5);
                       w.state().reg["l"] = co_await w.ld_acq_wg(L);
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) { return std::pair{kv(s), s.reg["l"] != 5}; };
  return t;
}

LitmusTest pa_overflow() {
  constexpr uint32_t kFlags = 6;
  LitmusTest t;
  t.name = "pa_overflow";
  t.what = "more remote releases than PA-TBL entries (4 here), then the owner acquires the first";
  t.forbidden = "the owner sees F0=1 and then stale D0";
  t.tune = [](ScopedSpec& s) { s.pa_entries = 4; };
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await w.ld(Y); // D0 cached with its old value
                       co_await w.sleep(300);
                       w.state().reg["f0"] =
                           co_await w.spin([&] { return w.ld_acq_wg(F); }, 1, 4 * kSpin, 0);
                       w.state().reg["d0"] = co_await w.ld(Y);
                     }});
  t.waves.push_back({1, [](Wave& w) -> Task<void> {
                       for (uint32_t i = 0; i < kFlags; ++i) {
                         co_await w.st(Y + 64 * 0x100 * i, 1);
                         co_await w.st_rem_rel(F + 64 * i, 1);
                       }
                     }});
  t.check = [](ScopedSystem&, LitmusState& s) {
    return std::pair{kv(s), s.reg["f0"] != 1 || s.reg["d0"] != 1};
  };
  return t;
}

LitmusTest same_cu() {
  LitmusTest t;
  t.name = "same_cu";
  t.what = "owner and remote work-groups on one CU (srsp_opt's shortcut: no broadcast)";
  t.forbidden = "stale Y; with srsp_opt, a selective flush after the owner's release";
  t.min_cus = 2;
  t.opt_only = true;
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await w.st(Y, 1);
                       co_await w.st_rel_wg(F, 1);
                       w.state().reg["released"] = 1;
                     }});
  t.waves.push_back({0, [](Wave& w) -> Task<void> {
                       co_await w.sleep(200);
                       w.state().reg["f"] =
                           co_await w.spin([&] { return w.ld_rem_acq(F); }, 1, kSpin, 64);
                       w.state().reg["y"] = co_await w.ld(Y);
                     }});
  t.check = [](ScopedSystem& sys, LitmusState& s) {
    bool bcast = sys.protocol() == Protocol::SrspOpt &&
                 sys.stats().msgs[size_t(Msg::SelFlushReq)]->value() != 0;
    std::string o = "f=" + std::to_string(s.reg["f"]) + " y=" + std::to_string(s.reg["y"]);
    if (bcast) o += " broadcast";
    return std::pair{o, s.reg["f"] != 1 || s.reg["y"] != 1 || bcast};
  };
  return t;
}

} // namespace

const std::vector<LitmusTest>& litmus_suite() {
  static const std::vector<LitmusTest> suite = [] {
    std::vector<LitmusTest> s;
    s.push_back(mp_wg());
    s.push_back(message_passing("mp_remote_acq",
                                "owner releases at wg scope, a remote acquire reads", 0, 0));
    s.push_back(mp_remote_rel());
    s.push_back(lock_counter());
    s.push_back(lock_handoff());
    s.push_back(owner_holds_lock());
    s.push_back(three_party());
    s.push_back(read_own_write());
    s.push_back(release_refetch());
    s.push_back(
        message_passing("sfifo_overflow",
                        "17 stores after the release pop its LR-TBL entry; their write-backs "
                        "are in flight when the remote acquire asks (P4); slow, jittery "
                        "messages (jitter 64)",
                        0, 17));
    s.back().tune = [](ScopedSpec& sp) { sp.jitter_cycles = 64; };
    s.push_back(message_passing(
        "sfifo_wrap", "20 stores before Y wrap the sFIFO ring past the release's slot (P6)", 20,
        0));
    s.push_back(pa_overflow());
    s.push_back(same_cu());
    s.push_back(work_stealing());
    return s;
  }();
  return suite;
}

} // namespace tlmgpu::scoped
