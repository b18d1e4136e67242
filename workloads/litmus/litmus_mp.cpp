#include "workloads/litmus/litmus_mp.hpp"

#include "models/host/host_module.hpp"
#include "workloads/litmus/litmus_workload.hpp"

#include "tlmgpu/config.hpp"

namespace tlmgpu {

namespace {
constexpr uint32_t kWords = kLitmusWords; // one 128 B line of u32 per round
Lanes<Addr> round_words(Addr base, uint32_t r) {
  return litmus_round_words(base, r);
}
} // namespace

Lanes<Addr> litmus_round_words(Addr base, uint32_t r) {
  Lanes<uint64_t> i;
  for (unsigned l = 0; l < kMaxLanes; ++l)
    i[l] = uint64_t(r) * kLitmusWords + l % kLitmusWords;
  return address_of<uint32_t>(base, i);
}

WarpTask litmus_mp_kernel(Warp& w, LitmusMpArgs a) {
  if (w.cta_linear() > 1) co_return;
  const Mask m = w.active() & Mask::all(kWords);
  if (w.warp_in_cta() != 0) {
    // Pollers (reader's CTA only): keep reading the data lines, so the
    // reader's L1 has fills in flight when the reader acquires. A fill
    // issued before the writer's release must not serve a load issued
    // after the acquire.
    if (w.cta_linear() == 0) co_return;
    for (uint32_t i = 0; i < a.poll_loads; ++i)
      (void)co_await w.load<uint32_t>(round_words(a.data, (i + w.warp_in_cta()) % a.rounds), m);
    co_return;
  }
  const Mask one = Mask::lane(0);
  if (w.cta_linear() == 0) { // the writer
    for (uint32_t r = 0; r < a.rounds; ++r) {
      Lanes<uint32_t> v;
      for (unsigned l = 0; l < kMaxLanes; ++l)
        v[l] = litmus_mp_value(r * kWords + l % kWords);
      co_await w.store<uint32_t>(round_words(a.data, r), v, m);
      co_await w.atomic<uint32_t>(AtomicOp::Exch, round_words(a.flags, r), Lanes<uint32_t>(1u), one,
                                  MemOrder::Release, a.release);
    }
    // Stay until the reader is done: this SM's kernel-end release (when it
    // runs out of CTAs) would drain the data and hide a missing release.
    for (;;) {
      const Lanes<uint32_t> d = co_await w.atomic<uint32_t>(
          AtomicOp::Or, round_words(a.flags, a.rounds), Lanes<uint32_t>(0u), one);
      if (d[0] != 0) co_return;
      co_await w.compute(16);
    }
  }
  // The reader: its L1 gets the data lines before the writer's values can
  // be there, so a missing invalidation shows up as a stale word. These
  // loads race with the writer's stores (nothing orders them), on purpose;
  // prime=0 leaves them out for a race-free program (--check-races).
  if (a.prime)
    for (uint32_t r = 0; r < a.rounds; ++r)
      (void)co_await w.load<uint32_t>(round_words(a.data, r), m);
  for (uint32_t r = 0; r < a.rounds; ++r) {
    // The flag is read with an atomic, performed at L2, so the wait ends
    // whatever the scopes; only the data can be stale.
    for (;;) {
      const Lanes<uint32_t> f =
          co_await w.atomic<uint32_t>(AtomicOp::Or, round_words(a.flags, r), Lanes<uint32_t>(0u),
                                      one, MemOrder::Acquire, a.acquire);
      if (f[0] != 0) break;
      co_await w.compute(16); // back off
    }
    const Lanes<uint32_t> d = co_await w.load<uint32_t>(round_words(a.data, r), m);
    co_await w.store<uint32_t>(round_words(a.observed, r), d, m);
  }
  co_await w.atomic<uint32_t>(AtomicOp::Exch, round_words(a.flags, a.rounds), Lanes<uint32_t>(1u),
                              one);
}

namespace {

// The scope names of every access (parse_scope); this test has two sides
// to tell apart, so only cta and device.
Scope scope_arg(const WorkloadArgs& a, const std::string& name) {
  const std::string s = a.str(name);
  const std::optional<Scope> sc = parse_scope(s);
  if (sc == Scope::Cta || sc == Scope::Device) return *sc;
  throw ConfigError("workload argument " + name + ": expected 'cta' or 'device', got '" + s + "'");
}

class LitmusMp : public LitmusWorkload {
public:
  explicit LitmusMp(const WorkloadArgs& a) : LitmusWorkload("litmus_mp") {
    args_.rounds = uint32_t(a.u64("rounds", 1, 4096));
    args_.release = scope_arg(a, "release");
    args_.acquire = scope_arg(a, "acquire");
    pollers_ = uint32_t(a.u64("pollers", 0, 31));
    args_.poll_loads = pollers_ ? args_.rounds * 16 : 0;
    args_.prime = a.u64("prime", 0, 1) == 1;
  }

  void declare_stats(StatGroup& g) override {
    stale_ =
        &g.counter("stale_reads", "words", "data words the reader saw without the writer's value");
  }

  std::string check(SimContext&, GpuModule&, std::ostream& out) override {
    uint64_t stale = 0;
    for (uint32_t i = 0; i < observed_.size(); ++i)
      stale += observed_[i] != litmus_mp_value(i);
    *stale_ += stale;
    const bool covered = args_.release == Scope::Device && args_.acquire == Scope::Device;
    out << "litmus-mp: " << args_.rounds << " rounds, release at " << to_string(args_.release)
        << " scope, acquire at " << to_string(args_.acquire) << " scope: " << stale << " of "
        << observed_.size() << " data words stale"
        << (covered ? "" : " (under-synchronised: stale words allowed)") << "\n";
    if (covered && stale != 0)
      return std::to_string(stale) + " stale data words after a device-scope release/acquire";
    return "";
  }

private:
  void program(HostModule& h) override {
    const std::vector<uint32_t> zeros(size_t(args_.rounds) * kWords, 0u);
    args_.data = h.upload(zeros, "data");
    // One more flag: the reader's "done", which the writer waits for.
    args_.flags = h.upload(std::vector<uint32_t>(zeros.size() + kWords, 0u), "flags");
    args_.observed = h.upload(zeros, "observed");
    run_kernel(h, "litmus_mp", 2, kWords * (1 + pollers_),
               [a = args_](Warp& w) { return litmus_mp_kernel(w, a); });
    observed_ = h.download<uint32_t>(args_.observed, zeros.size());
  }

  LitmusMpArgs args_;
  uint32_t pollers_ = 0;
  std::vector<uint32_t> observed_;
  Counter* stale_ = nullptr;
};

} // namespace

WorkloadEntry litmus_mp_workload() {
  WorkloadInfo info{"litmus-mp",
                    "message passing between CTAs on two SMs: data, then a release atomic on a "
                    "flag; the other CTA acquires the flag and reads the data (stale words "
                    "counted in litmus_mp.stale_reads; an error only under device scope)",
                    {{"rounds", "8", "messages (one 128 B data line each)"},
                     {"release", "device", "scope of the writer's release: cta or device"},
                     {"acquire", "device", "scope of the reader's acquire: cta or device"},
                     {"pollers", "0",
                      "more warps in the reader's CTA that keep loading the data lines "
                      "(16 x rounds loads each): fills in flight at the acquire"},
                     {"prime", "1",
                      "1: the reader loads the data lines first, racing with the writer (so "
                      "stale copies exist); 0: it does not (a race-free program)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<LitmusMp>(a); }};
}

} // namespace tlmgpu
