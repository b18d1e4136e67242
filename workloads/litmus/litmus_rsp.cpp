#include "workloads/litmus/litmus_rsp.hpp"

#include "models/host/host_module.hpp"
#include "workloads/litmus/litmus_mp.hpp"
#include "workloads/litmus/litmus_workload.hpp"

#include "tlmgpu/config.hpp"

namespace tlmgpu {

namespace {

Lanes<uint32_t> round_values(bool b, uint32_t r) {
  Lanes<uint32_t> v;
  for (unsigned l = 0; l < kMaxLanes; ++l)
    v[l] = litmus_rsp_value(b, r * kLitmusWords + l % kLitmusWords);
  return v;
}

// Round r's flag word (one_flag: word 0 of every round) and the value
// that sets it (one_flag: r + 1, a counter the reader waits to reach).
uint32_t flag_round(const LitmusRspArgs& a, uint32_t r) {
  return a.one_flag ? 0 : r;
}
uint32_t flag_value(const LitmusRspArgs& a, uint32_t r) {
  return a.one_flag ? r + 1 : 1;
}

// Reads round r's flag once; the flag is an atomic, performed at L2
// whatever its scope, so a spin on it always ends: only data can be stale.
WarpOp<Lanes<uint32_t>> poll(Warp& w, const LitmusRspArgs& a, Addr flags, uint32_t r, bool remote) {
  const Lanes<Addr> f = litmus_round_words(flags, flag_round(a, r));
  const Mask one = Mask::lane(0);
  return remote ? w.atomic_remote<uint32_t>(AtomicOp::Or, f, Lanes<uint32_t>(0u), one,
                                            MemOrder::Acquire)
                : w.atomic<uint32_t>(AtomicOp::Or, f, Lanes<uint32_t>(0u), one, MemOrder::Acquire,
                                     Scope::Cta);
}

} // namespace

WarpTask litmus_rsp_kernel(Warp& w, LitmusRspArgs a) {
  if (w.cta_linear() > 1) co_return;
  const Mask m = w.active() & Mask::all(kLitmusWords);
  const Mask one = Mask::lane(0);
  const bool owner = w.cta_linear() == 0;
  if (w.warp_in_cta() != 0) {
    // Pollers (owner's CTA only): keep loading B's data lines, so the
    // owner's L1 has fills in flight when a remote release invalidates it.
    // A fill issued before the thief's write must not serve a later load.
    if (!owner) co_return;
    for (uint32_t i = 0; i < a.poll_loads; ++i)
      (void)co_await w.load<uint32_t>(
          litmus_round_words(a.data_b, (i + w.warp_in_cta()) % a.rounds), m);
    co_return;
  }
  if (owner) // its L1 holds B's data lines before the thief writes them
    for (uint32_t r = 0; r < a.rounds; ++r)
      (void)co_await w.load<uint32_t>(litmus_round_words(a.data_b, r), m);
  for (uint32_t r = 0; r < a.rounds; ++r) {
    if (owner) {
      co_await w.store<uint32_t>(litmus_round_words(a.data_a, r), round_values(false, r), m);
      co_await w.atomic<uint32_t>(AtomicOp::Exch, litmus_round_words(a.flags_a, flag_round(a, r)),
                                  Lanes<uint32_t>(flag_value(a, r)), one, MemOrder::Release,
                                  Scope::Cta);
      while ((co_await poll(w, a, a.flags_b, r, false))[0] < flag_value(a, r))
        co_await w.compute(16); // back off
      const Lanes<uint32_t> d = co_await w.load<uint32_t>(litmus_round_words(a.data_b, r), m);
      co_await w.store<uint32_t>(litmus_round_words(a.observed_b, r), d, m);
    } else {
      while ((co_await poll(w, a, a.flags_a, r, true))[0] < flag_value(a, r))
        co_await w.compute(16);
      const Lanes<uint32_t> d = co_await w.load<uint32_t>(litmus_round_words(a.data_a, r), m);
      co_await w.store<uint32_t>(litmus_round_words(a.observed_a, r), d, m);
      co_await w.store<uint32_t>(litmus_round_words(a.data_b, r), round_values(true, r), m);
      co_await w.atomic_remote<uint32_t>(AtomicOp::Exch,
                                         litmus_round_words(a.flags_b, flag_round(a, r)),
                                         Lanes<uint32_t>(flag_value(a, r)), one, MemOrder::Release);
    }
  }
}

namespace {

class LitmusRsp : public LitmusWorkload {
public:
  explicit LitmusRsp(const WorkloadArgs& a) : LitmusWorkload("litmus_rsp") {
    args_.rounds = uint32_t(a.u64("rounds", 1, 4096));
    pollers_ = uint32_t(a.u64("pollers", 0, 31));
    args_.poll_loads = pollers_ ? args_.rounds * 16 : 0;
    args_.one_flag = a.u64("one_flag", 0, 1) == 1;
  }

  void declare_stats(StatGroup& g) override {
    stale_a_ = &g.counter("stale_acquire", "words",
                          "data words the thief read after its remote acquire without "
                          "the owner's value");
    stale_b_ = &g.counter("stale_release", "words",
                          "data words the owner read after the thief's remote release "
                          "without the thief's value");
  }

  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override {
    uint64_t stale[2] = {0, 0};
    for (int b = 0; b < 2; ++b)
      for (uint32_t i = 0; i < observed_[b].size(); ++i)
        stale[b] += observed_[b][i] != litmus_rsp_value(b, i);
    *stale_a_ += stale[0];
    *stale_b_ += stale[1];
    out << "litmus-rsp: " << args_.rounds << " rounds, l1.rsp = " << ctx.platform.l1.rsp << ": "
        << stale[0] << " of " << observed_[0].size() << " words stale after remote acquires, "
        << stale[1] << " of " << observed_[1].size() << " after remote releases";
    return promotion_verdict(ctx, out, stale[0] + stale[1], "stale data words", "stale words");
  }

private:
  void program(HostModule& h) override {
    const std::vector<uint32_t> zeros(size_t(args_.rounds) * kLitmusWords, 0u);
    args_.data_a = h.upload(zeros, "data_a");
    args_.data_b = h.upload(zeros, "data_b");
    args_.flags_a = h.upload(zeros, "flags_a");
    args_.flags_b = h.upload(zeros, "flags_b");
    args_.observed_a = h.upload(zeros, "observed_a");
    args_.observed_b = h.upload(zeros, "observed_b");
    run_kernel(h, "litmus_rsp", 2, kLitmusWords * (1 + pollers_),
               [a = args_](Warp& w) { return litmus_rsp_kernel(w, a); });
    observed_[0] = h.download<uint32_t>(args_.observed_a, zeros.size());
    observed_[1] = h.download<uint32_t>(args_.observed_b, zeros.size());
  }

  LitmusRspArgs args_;
  uint32_t pollers_ = 0;
  std::vector<uint32_t> observed_[2];
  Counter *stale_a_ = nullptr, *stale_b_ = nullptr;
};

} // namespace

WorkloadEntry litmus_rsp_workload() {
  WorkloadInfo info{"litmus-rsp",
                    "message passing with remote scope promotion: an owner CTA synchronising at "
                    "cta scope and a thief CTA on another SM using remote acquire/release "
                    "atomics, both directions (stale words in litmus_rsp.stale_acquire and "
                    ".stale_release; an error only with l1.rsp set)",
                    {{"rounds", "8", "messages each way (one 128 B data line each)"},
                     {"pollers", "0",
                      "more warps in the owner's CTA that keep loading B's data lines "
                      "(16 x rounds loads each): fills in flight at remote releases"},
                     {"one_flag", "0",
                      "1: every round reuses one flag word per direction, set to the round "
                      "number + 1, so the same line is released and promoted again each round "
                      "(sRSPOpt's owner predictor)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<LitmusRsp>(a); }};
}

} // namespace tlmgpu
