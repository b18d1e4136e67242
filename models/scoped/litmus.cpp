#include "models/scoped/litmus.hpp"

namespace tlmgpu::scoped {

Wave::Wave(ScopedSystem& sys, uint32_t cu, uint32_t id, LitmusState& st)
    : sys_(sys), l1_(sys.l1(cu)), id_(id), st_(st) {}

Task<uint32_t> Wave::ld(Addr a) {
  co_await think();
  co_return co_await l1_.load(a);
}

Task<void> Wave::st(Addr a, uint32_t v) {
  co_await think();
  co_await l1_.store(a, v);
}

Task<uint32_t> Wave::op(Kind k, Order o, Scope s, bool remote, Addr a, uint32_t x, uint32_t y) {
  co_await think();
  SyncOp op;
  op.kind = k;
  op.order = o;
  op.scope = s;
  op.remote = remote;
  op.addr = a;
  op.a = x;
  op.b = y;
  co_return co_await l1_.sync(op);
}

Task<void> Wave::think(uint32_t max) {
  uint64_t n = sys_.rng().delay(max);
  if (n) co_await sys_.loop().sleep(n);
}

Task<void> Wave::sleep(uint64_t cycles) {
  co_await sys_.loop().sleep(cycles);
}

LitmusResult run_litmus(const LitmusTest& t, ScopedSpec spec, const Mutations& mut, uint32_t seeds,
                        uint64_t seed0, uint64_t limit) {
  if (t.tune) t.tune(spec);
  if (spec.cus < t.min_cus) spec.cus = t.min_cus;
  LitmusResult r;
  r.test = t.name;
  r.variant = spec.protocol;
  for (uint32_t s = 0; s < seeds; ++s) {
    StatGroup root;
    StatGroup g(root, "scoped");
    LitmusState st;
    std::string outcome;
    bool forbidden = false;
    uint32_t left = uint32_t(t.waves.size());
    bool done = false;
    {
      ScopedSystem sys(spec, mut, seed0 + s, g);
      if (t.setup) t.setup(sys);
      st.ran.resize(t.waves.size());
      std::vector<std::unique_ptr<Wave>> waves;
      for (uint32_t i = 0; i < t.waves.size(); ++i)
        waves.push_back(std::make_unique<Wave>(sys, t.waves[i].first, i, st));
      for (uint32_t i = 0; i < t.waves.size(); ++i)
        sys.spawner().spawn(
            [](ScopedSystem& sys, Wave& w, const std::function<Task<void>(Wave&)>& body,
               uint32_t& left, bool& done) -> Task<void> {
              co_await body(w);
              if (--left) co_return;
              // Kernel end: a sys release of every L1, so memory is final.
              for (uint32_t c = 0; c < sys.cus(); ++c)
                co_await sys.l1(c).kernel_end();
              done = true;
            }(sys, *waves[i], t.waves[i].second, left, done),
            sys.rng().delay(16));
      sys.loop().run(limit);
      r.cycles += sys.loop().now();
      if (!sys.error().empty()) {
        outcome = "error: " + sys.error();
        forbidden = true;
      } else if (!done) {
        outcome = "hang";
        forbidden = true;
      } else {
        std::tie(outcome, forbidden) = t.check(sys, st);
      }
      for (auto* c : sys.stats().msgs)
        r.messages += c->value();
      r.remote_cycles += sys.stats().remote_cycles.value();
    }
    ++r.runs;
    ++r.outcomes[outcome];
    if (forbidden && r.forbidden++ == 0) {
      r.first_forbidden_seed = seed0 + s;
      r.first_forbidden = outcome;
    }
  }
  return r;
}

} // namespace tlmgpu::scoped
