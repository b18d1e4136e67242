// Link timing of the node fabric (seed-004 §7.6 T-BW-1, T-BW-2) on the
// DGX-1 platform file, and the fabric's checks.
#include "models/fabric/fabric_core.hpp"
#include "tlmgpu/node.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

namespace {

FabricSpec dgx() {
  return load_node(std::string(TLMGPU_SOURCE_DIR) + "/platforms/dgx1-v100x8.json").runtime.fabric;
}

// Moves the copies (path, bytes) side by side from time 0, chunk by chunk as
// FabricModule does (the next chunk when the previous one has left); the
// time each copy's last chunk arrives.
std::vector<Picos> run(FabricCore& f, const std::vector<std::pair<FabricCore::Path, uint64_t>>& c) {
  std::vector<Picos> ready(c.size(), 0), done(c.size(), 0);
  std::vector<uint64_t> left;
  for (const auto& x : c)
    left.push_back(x.second);
  for (;;) {
    int next = -1;
    for (size_t i = 0; i < c.size(); ++i)
      if (left[i] && (next < 0 || ready[i] < ready[size_t(next)])) next = int(i);
    if (next < 0) return done;
    const size_t i = size_t(next);
    const uint64_t b = std::min(left[i], f.spec().chunk_bytes);
    const FabricCore::Slot s = f.reserve(c[i].first, b, ready[i]);
    left[i] -= b;
    ready[i] = s.leave;
    done[i] = s.arrive;
  }
}

constexpr uint64_t kMiB = 1 << 20;

} // namespace

TEST_CASE("one copy alone takes bytes / bandwidth + latency", "[fabric]") {
  FabricCore f(dgx(), 8);
  const auto& p = f.host_path(0, 0); // mem0 -> socket0 -> switch0 -> gpu0
  REQUIRE(p.size() == 3);
  const auto t = run(f, {{p, 256 * kMiB}});
  // 12 GB/s (the PCIe hops; host DRAM is 60 GB/s) and 0.1 + 0.5 + 0.5 us
  const double want_ps = 256.0 * kMiB / 12e9 * 1e12 + 1.1e6;
  CHECK(double(t[0]) == Approx(want_ps).epsilon(1e-6));
  CHECK(t[0] == f.alone(p, 256 * kMiB));
}

TEST_CASE("two copies through one switch uplink share it; different switches do not", "[fabric]") {
  const uint64_t n = 256 * kMiB;
  FabricCore shared(dgx(), 8);
  const auto both = run(shared, {{shared.host_path(0, 0), n}, {shared.host_path(0, 1), n}});
  const Picos alone = shared.alone(shared.host_path(0, 0), n);
  // GPUs 0 and 1 sit behind switch0: each sees about half the bandwidth
  CHECK(double(both[0]) == Approx(2.0 * double(alone)).epsilon(0.01));
  CHECK(double(both[1]) == Approx(2.0 * double(alone)).epsilon(0.01));
  FabricCore apart(dgx(), 8);
  const auto two = run(apart, {{apart.host_path(0, 0), n}, {apart.host_path(0, 2), n}});
  // GPUs 0 and 2: different switches, each at full speed (host DRAM is 60 GB/s)
  CHECK(double(two[0]) == Approx(double(alone)).epsilon(0.01));
  CHECK(double(two[1]) == Approx(double(alone)).epsilon(0.01));
}

TEST_CASE("peer copies: NV2 is twice NV1, a pair without NVLink has no direct path", "[fabric]") {
  FabricCore f(dgx(), 8);
  const uint64_t n = 256 * kMiB;
  const Picos nv2 = f.alone(f.peer_path(0, 3), n), nv1 = f.alone(f.peer_path(0, 1), n);
  CHECK(double(nv1 - 1000000) == Approx(2.0 * double(nv2 - 1000000)).epsilon(1e-6));
  CHECK(f.peer_path(0, 5).empty()); // SYS: staged through the host by the module
  CHECK(f.peer_path(0, 4).size() == 1);
  // GPUs 4-7 reach socket-0 memory over QPI
  CHECK(f.host_path(0, 4).size() == 4);
}

TEST_CASE("a fabric that cannot work is refused with the link or point named", "[fabric]") {
  FabricSpec s = dgx();
  s.links[0].b = "nowhere";
  CHECK_THROWS_WITH(FabricCore(s, 8), Catch::Contains("unknown point 'nowhere'"));
  s = dgx();
  s.links[1].name = s.links[0].name;
  CHECK_THROWS_WITH(FabricCore(s, 8), Catch::Contains("a second link named"));
  s = dgx();
  s.links.erase(s.links.begin() + 3, s.links.begin() + 7); // the switch uplinks
  CHECK_THROWS_WITH(FabricCore(s, 8), Catch::Contains("cannot be reached"));
  s = dgx();
  s.links[0].gbps = 0;
  CHECK_THROWS_WITH(FabricCore(s, 8), Catch::Contains("gbps must be a positive number"));
  s = dgx();
  s.links.back().kind = "pcie4";
  CHECK_THROWS_WITH(FabricCore(s, 8), Catch::Contains("kind must be one of"));
}
