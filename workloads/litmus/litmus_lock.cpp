#include "workloads/litmus/litmus_lock.hpp"

#include "models/host/host_module.hpp"
#include "workloads/litmus/litmus_mp.hpp"
#include "workloads/litmus/litmus_workload.hpp"

namespace tlmgpu {

WarpTask litmus_lock_kernel(Warp& w, LitmusLockArgs a) {
  if (w.warp_in_cta() != 0) co_return;
  const Mask m = w.active() & Mask::all(kLitmusWords);
  const Mask one = Mask::lane(0);
  const bool owner = w.cta_linear() == 0;
  const Lanes<Addr> lock = litmus_round_words(a.lock, 0);
  const Lanes<Addr> counter = litmus_round_words(a.counter, 0);
  const Lanes<uint32_t> free(0u), taken(1u);
  // Word 0 is the lock; the counters are a line of their own.
  // Word 1 of the lock's line: the owner's L1 holds the counters (it sets
  // it to 1 once it does); word 2 counts the thieves done. The thieves start
  // only then, so an owner that is never invalidated reads stale counts
  // whatever order the CTAs run in.
  const Lanes<Addr> ready = litmus_round_words(a.lock, 0).map([](Addr x) { return x + 4; });
  const Lanes<Addr> done = litmus_round_words(a.lock, 0).map([](Addr x) { return x + 8; });
  if (owner) {
    (void)co_await w.load<uint32_t>(counter, m);
    co_await w.atomic<uint32_t>(AtomicOp::Exch, ready, taken, one);
  } else {
    while ((co_await w.atomic<uint32_t>(AtomicOp::Or, ready, free, one))[0] == 0)
      co_await w.compute(16);
  }
  for (uint32_t i = 0; i < a.iters; ++i) {
    for (;;) {
      const Lanes<uint32_t> old =
          owner ? co_await w.atomic_cas<uint32_t>(lock, free, taken, one, MemOrder::Acquire,
                                                  Scope::Cta)
                : co_await w.atomic_cas_remote<uint32_t>(lock, free, taken, one, MemOrder::Acquire);
      if (old[0] == 0) break;
      co_await w.compute(16); // back off
    }
    const Lanes<uint32_t> c = co_await w.load<uint32_t>(counter, m);
    co_await w.store<uint32_t>(counter, c.map([](uint32_t x) { return x + 1; }), m);
    if (owner)
      co_await w.atomic<uint32_t>(AtomicOp::Exch, lock, free, one, MemOrder::Release, Scope::Cta);
    else
      co_await w.atomic_remote<uint32_t>(AtomicOp::Exch, lock, free, one, MemOrder::Release);
  }
  // The owner stays until every thief is done: its SM's kernel-end release
  // (when it runs out of CTAs) would drain its counters and hide a missing
  // flush.
  if (!owner) {
    co_await w.atomic<uint32_t>(AtomicOp::Add, done, taken, one);
    co_return;
  }
  while ((co_await w.atomic<uint32_t>(AtomicOp::Or, done, free, one))[0] < a.thieves)
    co_await w.compute(16);
}

namespace {

class LitmusLock : public LitmusWorkload {
public:
  explicit LitmusLock(const WorkloadArgs& a) : LitmusWorkload("litmus_lock") {
    args_.iters = uint32_t(a.u64("iters", 1, 4096));
    thieves_ = uint32_t(a.u64("thieves", 1, 63));
  }

  void declare_stats(StatGroup& g) override {
    lost_ = &g.counter("lost_increments", "increments",
                       "counter increments missing at the end (lost under the lock)");
  }

  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override {
    const uint64_t want = uint64_t(1 + thieves_) * args_.iters;
    uint64_t lost = 0;
    for (uint32_t c : counters_)
      lost += c < want ? want - c : 0;
    *lost_ += lost;
    out << "litmus-lock: owner + " << thieves_ << " thieves x " << args_.iters
        << " increments, l1.rsp = " << ctx.platform.l1.rsp << ": " << lost << " of "
        << want * counters_.size() << " increments lost";
    const std::string verdict = promotion_verdict(ctx, out, lost, "increments lost", "losses");
    for (uint32_t c : counters_)
      if (c > want) return "a counter went past " + std::to_string(want) + ": " + std::to_string(c);
    return verdict;
  }

private:
  void program(HostModule& h) override {
    const std::vector<uint32_t> zeros(kLitmusWords, 0u);
    args_.lock = h.upload(zeros, "lock");
    args_.counter = h.upload(zeros, "counter");
    args_.thieves = thieves_;
    run_kernel(h, "litmus_lock", 1 + thieves_, kLitmusWords,
               [a = args_](Warp& w) { return litmus_lock_kernel(w, a); });
    counters_ = h.download<uint32_t>(args_.counter, zeros.size());
  }

  LitmusLockArgs args_;
  uint32_t thieves_ = 1;
  std::vector<uint32_t> counters_;
  Counter* lost_ = nullptr;
};

} // namespace

WorkloadEntry litmus_lock_workload() {
  WorkloadInfo info{"litmus-lock",
                    "asymmetric lock counter: an owner CTA takes a spin lock at cta scope, thief "
                    "CTAs on other SMs take it with remote atomics; each increments 32 counters "
                    "under it (lost increments in litmus_lock.lost_increments; an error only with "
                    "l1.rsp set)",
                    {{"iters", "8", "lock acquisitions of each CTA"},
                     {"thieves", "1", "thief CTAs (one SM each with round-robin placement)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<LitmusLock>(a); }};
}

} // namespace tlmgpu
