#include "workloads/litmus/litmus_chain.hpp"

#include "models/host/host_module.hpp"
#include "workloads/litmus/litmus_mp.hpp"
#include "workloads/litmus/litmus_workload.hpp"

namespace tlmgpu {
namespace {

constexpr uint32_t x_value(uint32_t i) {
  return 0x7a000000u | i;
}
constexpr uint32_t z_value(uint32_t i) {
  return 0x3c000000u | i;
}

Lanes<uint32_t> values(uint32_t (*f)(uint32_t), uint32_t r) {
  Lanes<uint32_t> v;
  for (unsigned l = 0; l < kMaxLanes; ++l)
    v[l] = f(r * kLitmusWords + l % kLitmusWords);
  return v;
}

// L of round r reaching `want`: an atomic, performed at L2 whatever its
// scope, so the wait ends; only data can be stale.
WarpTask wait_flag(Warp& w, Addr flags, uint32_t r, uint32_t want, bool remote) {
  const Lanes<Addr> f = litmus_round_words(flags, r);
  const Mask one = Mask::lane(0);
  for (;;) {
    const Lanes<uint32_t> v =
        remote ? co_await w.atomic_remote<uint32_t>(AtomicOp::Or, f, Lanes<uint32_t>(0u), one,
                                                    MemOrder::Acquire)
               : co_await w.atomic<uint32_t>(AtomicOp::Or, f, Lanes<uint32_t>(0u), one,
                                             MemOrder::Acquire, Scope::Cta);
    if (v[0] >= want) co_return;
    co_await w.compute(16); // back off
  }
}

} // namespace

WarpTask litmus_chain_kernel(Warp& w, LitmusChainArgs a) {
  if (w.cta_linear() > 1 || w.warp_in_cta() > 1) co_return;
  const Mask m = w.active() & Mask::all(kLitmusWords);
  const Mask one = Mask::lane(0);
  const bool owner = w.cta_linear() == 0;
  if (!owner) { // the thief (warp 1 of its CTA has nothing to do)
    if (w.warp_in_cta() != 0) co_return;
    for (uint32_t r = 0; r < a.rounds; ++r) {
      co_await wait_flag(w, a.flags, r, 1, true);
      const Lanes<uint32_t> x = co_await w.load<uint32_t>(litmus_round_words(a.x, r), m);
      co_await w.store<uint32_t>(litmus_round_words(a.seen_x, r), x, m);
      co_await w.store<uint32_t>(litmus_round_words(a.z, r), values(z_value, r), m);
      co_await w.atomic_remote<uint32_t>(AtomicOp::Exch, litmus_round_words(a.flags, r),
                                         Lanes<uint32_t>(2u), one, MemOrder::Release);
    }
    co_return;
  }
  // Owner warp 1 brings Z's and X's old lines into the owner's L1 first;
  // the barrier orders those loads before warp 0's writes and, through L,
  // before the thief's.
  if (w.warp_in_cta() == 1)
    for (uint32_t r = 0; r < a.rounds; ++r) {
      (void)co_await w.load<uint32_t>(litmus_round_words(a.z, r), m);
      (void)co_await w.load<uint32_t>(litmus_round_words(a.x, r), m);
    }
  co_await w.barrier();
  for (uint32_t r = 0; r < a.rounds; ++r) {
    if (w.warp_in_cta() == 0) {
      co_await w.store<uint32_t>(litmus_round_words(a.x, r), values(x_value, r), m);
      co_await w.atomic<uint32_t>(AtomicOp::Exch, litmus_round_words(a.flags, r),
                                  Lanes<uint32_t>(1u), one, MemOrder::Release, Scope::Cta);
    } else {
      co_await wait_flag(w, a.flags, r, 2, false);
      const Lanes<uint32_t> z = co_await w.load<uint32_t>(litmus_round_words(a.z, r), m);
      const Lanes<uint32_t> x = co_await w.load<uint32_t>(litmus_round_words(a.x, r), m);
      co_await w.store<uint32_t>(litmus_round_words(a.owner_seen, 2 * r), z, m);
      co_await w.store<uint32_t>(litmus_round_words(a.owner_seen, 2 * r + 1), x, m);
    }
  }
}

namespace {

class LitmusChain : public LitmusWorkload {
public:
  explicit LitmusChain(const WorkloadArgs& a) : LitmusWorkload("litmus_chain") {
    args_.rounds = uint32_t(a.u64("rounds", 1, 4096));
  }

  void declare_stats(StatGroup& g) override {
    thief_x_ =
        &g.counter("stale_thief_x", "words", "X words the thief read without the owner's value");
    owner_z_ = &g.counter("stale_owner_z", "words",
                          "Z words the owner's second warp read without the thief's value");
    owner_x_ = &g.counter("stale_owner_x", "words",
                          "X words the owner's second warp read without its first warp's value");
  }

  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override {
    uint64_t tx = 0, oz = 0, ox = 0;
    const uint32_t n = args_.rounds * kLitmusWords;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t r = i / kLitmusWords, l = i % kLitmusWords;
      tx += seen_x_[i] != x_value(i);
      oz += owner_seen_[(2 * r) * kLitmusWords + l] != z_value(i);
      ox += owner_seen_[(2 * r + 1) * kLitmusWords + l] != x_value(i);
    }
    *thief_x_ += tx;
    *owner_z_ += oz;
    *owner_x_ += ox;
    out << "litmus-chain: " << args_.rounds << " rounds, l1.rsp = " << ctx.platform.l1.rsp
        << ": stale X at the thief " << tx << ", stale Z at the owner " << oz
        << ", stale X at the owner " << ox << " of " << n << " words each";
    return promotion_verdict(ctx, out, tx + oz + ox, "stale words in the three-party chain",
                             "stale words");
  }

private:
  void program(HostModule& h) override {
    const std::vector<uint32_t> zeros(size_t(args_.rounds) * kLitmusWords, 0u);
    args_.x = h.upload(zeros, "x");
    args_.z = h.upload(zeros, "z");
    args_.flags = h.upload(zeros, "flags");
    args_.seen_x = h.upload(zeros, "seen_x");
    args_.owner_seen = h.upload(std::vector<uint32_t>(2 * zeros.size(), 0u), "owner_seen");
    run_kernel(h, "litmus_chain", 2, 2 * kLitmusWords,
               [a = args_](Warp& w) { return litmus_chain_kernel(w, a); });
    seen_x_ = h.download<uint32_t>(args_.seen_x, zeros.size());
    owner_seen_ = h.download<uint32_t>(args_.owner_seen, 2 * zeros.size());
  }

  LitmusChainArgs args_;
  std::vector<uint32_t> seen_x_, owner_seen_;
  Counter *thief_x_ = nullptr, *owner_z_ = nullptr, *owner_x_ = nullptr;
};

} // namespace

WorkloadEntry litmus_chain_workload() {
  WorkloadInfo info{"litmus-chain",
                    "three-party chain: owner warp 0 writes X and releases L at cta scope, a thief "
                    "CTA acquires L remotely, reads X, writes Z, releases L remotely, owner warp 1 "
                    "acquires L at cta scope and reads Z and X (stale words counted in "
                    "litmus_chain.*; an error only with l1.rsp set)",
                    {{"rounds", "4", "chains (one 128 B line of X and of Z each)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<LitmusChain>(a); }};
}

} // namespace tlmgpu
