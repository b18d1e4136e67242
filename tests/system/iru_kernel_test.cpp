// The IRU's kernel API (models/iru/iru_kernel.hpp): configure_iru on the
// host, load_iru in a warp program, as the thesis instruments its kernels
// (Figs. 5.8-5.10). Each run launches the baseline kernel and its IRU
// version on copies of one input; both must compute the same result, and
// the IRU's must touch fewer lines.
#include "models/host/host_module.hpp"
#include "models/iru/iru_kernel.hpp"
#include "models/iru/iru_module.hpp"
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <random>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

struct Args {
  Addr edges, weights, label, lookup;
  uint32_t n;
  IruDevice iru; // partitions == 0: the baseline
};

Mask mine(const Warp& w, uint32_t n) {
  return w.active() & (w.global_thread_id() < Lanes<uint64_t>(n));
}

// Fig. 5.10, PR_Contract: label[edge] += weight; with the IRU the weights
// of equal edges come already summed and merged lanes are inactive.
WarpTask pr_contract(Warp& w, Args a) {
  Lanes<uint32_t> edge;
  Lanes<float> weight;
  Mask m = mine(w, a.n);
  if (a.iru.partitions) {
    IruLoad got;
    co_await load_iru(w, a.iru, got, kIruSecondary);
    edge = got.index, weight = got.secondary_as<float>(), m = got.active;
  } else if (m.any()) {
    const Lanes<uint64_t> pos = w.global_thread_id();
    edge = co_await w.load<uint32_t>(address_of<uint32_t>(a.edges, pos), m);
    weight = co_await w.load<float>(address_of<float>(a.weights, pos), m);
  }
  if (m.any()) co_await w.red<float>(AtomicOp::Add, address_of<float>(a.label, edge), weight, m);
}

// Fig. 5.9, SSSP contraction: prev = atomicMin(label[edge], weight); if
// prev > weight, lookup[edge] = pos (the original position, which the IRU
// hands back with the pair).
WarpTask sssp_contract(Warp& w, Args a) {
  Lanes<uint32_t> edge, weight, pos;
  Mask m = mine(w, a.n);
  if (a.iru.partitions) {
    IruLoad got;
    co_await load_iru(w, a.iru, got, kIruSecondary | kIruPosition);
    edge = got.index, weight = got.secondary, pos = got.position, m = got.active;
  } else if (m.any()) {
    pos = Lanes<uint32_t>(w.global_thread_id());
    edge = co_await w.load<uint32_t>(address_of<uint32_t>(a.edges, pos), m);
    weight = co_await w.load<uint32_t>(address_of<uint32_t>(a.weights, pos), m);
  }
  if (m.empty()) co_return;
  const auto prev =
      co_await w.atomic<uint32_t>(AtomicOp::Min, address_of<uint32_t>(a.label, edge), weight, m);
  const Mask better = m & (prev > weight);
  if (better.any()) co_await w.store<uint32_t>(address_of<uint32_t>(a.lookup, edge), pos, better);
}

double sum_over_sms(const nlohmann::json& gpu, const char* stat) {
  double s = 0;
  for (auto& [k, v] : gpu.items())
    if (k.rfind("sm_", 0) == 0) s += v[stat].get<double>(); // kernel trees: plain numbers
  return s;
}

struct Input {
  std::vector<uint32_t> edges, weights;
  uint32_t vertices;
};

Input make_input(uint32_t n, uint32_t vertices, bool float_weights) {
  std::mt19937 rng(9);
  Input in{{}, {}, vertices};
  for (uint32_t i = 0; i < n; ++i) {
    in.edges.push_back(rng() % vertices);
    const uint32_t w = 1 + rng() % 64;
    in.weights.push_back(float_weights ? std::bit_cast<uint32_t>(float(w)) : w);
  }
  return in;
}

// Runs `kernel` without and with the IRU (merge `m`) on fresh copies of
// `label0`; returns both labels, lookups and the kernels' stats.
struct Both {
  std::vector<uint32_t> label[2], lookup[2];
  nlohmann::json stats[2];
  uint64_t remaining = 0;
};
Both run_both(const std::string& platform, TimingMode mode, const Input& in, uint32_t label0,
              IruMerge m, WarpTask (*kernel)(Warp&, Args),
              const std::vector<std::string>& sets = {}) {
  const PlatformSpec p = load_platform(platform_path(platform), sets);
  const uint32_t n = uint32_t(in.edges.size()), block = 128;
  Both b;
  const ProgramResult r = run_host_program(p, mode, 1, [&](HostModule& h) {
    IruControl* iru = IruControl::of(h.context());
    REQUIRE(iru);
    Args a{h.upload(in.edges), h.upload(in.weights), 0, 0, n, {}};
    for (int k = 0; k < 2; ++k) {
      a.label = h.upload(std::vector<uint32_t>(in.vertices, label0));
      a.lookup = h.upload(std::vector<uint32_t>(in.vertices, ~0u));
      if (k == 1) {
        REQUIRE(configure_iru(h.context(), {a.label, 4, a.edges, a.weights, n, m, {}, {}},
                              h.gpu().device_memory));
        a.iru = iru->device();
      }
      h.launch(KernelLaunch{k ? "iru" : "baseline",
                            {(n + block - 1) / block, 1, 1},
                            {block, 1, 1},
                            0,
                            32,
                            [a, kernel](Warp& w) { return kernel(w, a); }});
      h.synchronize();
      b.label[k] = h.download<uint32_t>(a.label, in.vertices);
      b.lookup[k] = h.download<uint32_t>(a.lookup, in.vertices);
    }
    b.remaining = iru->remaining();
  });
  for (int k = 0; k < 2; ++k)
    b.stats[k] = r.stats["kernels"][k]["stats"]["gpu"];
  return b;
}

// `timeout` and the share of the baseline's red requests the IRU may send.
Both pagerank(const std::string& platform, TimingMode mode, uint32_t timeout, double at_most) {
  const Input in = make_input(6000, 2048, true);
  Both b = run_both(platform, mode, in, 0, IruMerge::AddF32, pr_contract,
                    {"iru.timeout_cycles=" + std::to_string(timeout)});
  for (uint32_t v = 0; v < in.vertices; ++v)
    REQUIRE(std::bit_cast<float>(b.label[1][v]) == Approx(std::bit_cast<float>(b.label[0][v])));
  CHECK(b.remaining == 0);
  // Grouped by block and merged: fewer red line requests.
  const double base = sum_over_sms(b.stats[0], "atomic_requests"),
               iru = sum_over_sms(b.stats[1], "atomic_requests");
  INFO("red requests: baseline " << base << ", iru " << iru);
  CHECK(iru < at_most * base);
  return b;
}

void sssp(const std::string& platform, TimingMode mode) {
  const Input in = make_input(6000, 3000, false);
  Both b = run_both(platform, mode, in, ~0u, IruMerge::MinU32, sssp_contract);
  CHECK(b.label[1] == b.label[0]); // per-vertex minima
  // The position a lookup names is an edge to that vertex (the IRU handed
  // back each element's own position); which of them won is a race in the
  // baseline too, so only its weight bound is checked.
  for (uint32_t v = 0; v < in.vertices; ++v)
    if (b.label[1][v] != ~0u) {
      const uint32_t pos = b.lookup[1][v];
      REQUIRE(pos < in.edges.size());
      REQUIRE(in.edges[pos] == v);
      REQUIRE(in.weights[pos] >= b.label[1][v]);
    }
  CHECK(b.remaining == 0);
  CHECK(sum_over_sms(b.stats[1], "atomic_requests") < sum_over_sms(b.stats[0], "atomic_requests"));
}

} // namespace

// All of tiny's 128 resident warps ask at the kernel's start, before the
// prefetchers (8 lines in flight each) have brought much: with the notes'
// 512-cycle timeout the replies take what has come (about 23 blocks each,
// 12 % fewer reds); 4096 lets the sets fill first (10 blocks, 87 % fewer).
TEST_CASE("load_iru: PageRank contraction with merged sums: lt", "[iru]") {
  pagerank("examples/iru/tiny-iru.json", TimingMode::LT, 4096, 0.5);
}
TEST_CASE("load_iru: PageRank contraction with merged sums: at", "[iru]") {
  pagerank("examples/iru/tiny-iru.json", TimingMode::AT, 4096, 0.5);
}
TEST_CASE("load_iru: PageRank contraction with the default timeout: at", "[iru]") {
  pagerank("examples/iru/tiny-iru.json", TimingMode::AT, 512, 0.95);
}
TEST_CASE("load_iru: PageRank contraction on the GTX 980 IRU (4 partitions): at", "[iru]") {
  const Both b = pagerank("examples/iru/gtx980-iru.json", TimingMode::AT, 4096, 0.5);
  double passed_on = 0; // packets for a partition two or three hops on
  for (int p = 0; p < 4; ++p)
    passed_on += b.stats[1]["iru_" + std::to_string(p)]["ring_forwarded"].get<double>();
  CHECK(passed_on > 0);
}
TEST_CASE("load_iru: SSSP contraction keeps minima and positions: functional", "[iru]") {
  sssp("examples/iru/tiny-iru.json", TimingMode::Functional);
}
TEST_CASE("load_iru: SSSP contraction keeps minima and positions: at", "[iru]") {
  sssp("examples/iru/tiny-iru.json", TimingMode::AT);
}
