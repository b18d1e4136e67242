// Thrashing mitigation of the managed memory (models/uvm/README.md): a page
// that keeps moving between GPUs is pinned after `thrash_threshold`
// migrations close together; later touches map it remotely (one fault) and
// move `remote_bytes` over the fabric instead of migrating; it is pinned on
// a GPU only when every GPU touching it is an NVLink peer of that GPU, else
// in host memory.
#include "models/uvm/managed_memory.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::uvm;

namespace {

constexpr double kUs = 1e-6;

struct Rig {
  StatGroup root;
  UvmSpec spec = defaults<UvmSpec>();
  std::unique_ptr<ManagedMemory> mm;
  uint32_t alloc = 0;
  // `links`: GPU pairs with an NVLink (both directions).
  explicit Rig(uint32_t threshold, double lapse_us = 250, uint32_t gpus = 4,
               std::vector<std::pair<uint32_t, uint32_t>> links = {}, uint64_t sample = 1,
               const char* pin_at = "driver", uint32_t pin_threshold = 0, double pin_ms = 0) {
    spec.thrash_threshold = threshold;
    spec.thrash_pin_threshold = pin_threshold;
    spec.thrash_pin_ms = pin_ms;
    spec.pin_at = pin_at;
    spec.thrash_lapse_us = lapse_us;
    mm = std::make_unique<ManagedMemory>(spec, gpus, uint64_t(1) << 30, root);
    std::vector<std::vector<bool>> nv(gpus, std::vector<bool>(gpus, false));
    for (auto [a, b] : links)
      nv[a][b] = nv[b][a] = true;
    mm->set_nvlink(nv);
    alloc = mm->allocate(4 * 4096 * sample, sample);
  }
  // GPU `gpu` accesses entry 0 at `t_us` (one access, as a GUPS update).
  Faults touch(uint32_t gpu, double t_us, uint64_t entry = 0) {
    Faults f(gpu, mm->gpus(), t_us * kUs);
    mm->touch(f, alloc, entry);
    mm->service(f, t_us * kUs);
    return f;
  }
  // Bounces entry 0 between GPUs a and b, `n` migrations `gap_us` apart from t = 0.
  void bounce(uint32_t a, uint32_t b, int n, double gap_us) {
    for (int i = 0; i < n; ++i)
      touch(i % 2 ? b : a, i * gap_us);
  }
  // A counter of node.uvm.gpu_<gpu>; null when it is not declared.
  const Counter* counter(uint32_t gpu, const char* name) const {
    return dynamic_cast<const Counter*>(root.find("uvm.gpu_" + std::to_string(gpu) + "." + name));
  }
  uint64_t stat(uint32_t gpu, const char* name) const {
    const Counter* c = counter(gpu, name);
    REQUIRE(c);
    return c->value();
  }
};

const std::vector<std::pair<uint32_t, uint32_t>> kAllPeers = {{0, 1}, {0, 2}, {0, 3},
                                                              {1, 2}, {1, 3}, {2, 3}};

} // namespace

TEST_CASE("uvm thrash: a bouncing page is pinned after the threshold, then mapped remotely",
          "[uvm][thrash]") {
  Rig r(3, 250, 4, kAllPeers);
  // host -> 0 -> 1 -> 0 -> 1: the last three migrations each within 10 us
  r.bounce(0, 1, 4, 10);
  CHECK(r.mm->where(r.alloc, 0) == 1);
  CHECK_FALSE(r.mm->pinned(r.alloc, 0));
  const Faults f = r.touch(0, 40); // would be the fourth move back: pinned on GPU 1 instead
  CHECK(r.mm->pinned(r.alloc, 0));
  CHECK(r.mm->where(r.alloc, 0) == 1);
  CHECK(f.faults == 0);
  CHECK(f.from_gpu[1] == 0);
  CHECK(f.pinned == 1);
  CHECK(f.maps == 1);    // the mapping is a fault, serviced in a batch
  CHECK(f.batches == 1); // but nothing migrates
  CHECK(f.remote == 1);
  CHECK(f.remote_gpu_bytes[1] == 32);
  CHECK(r.mm->resident_bytes(0) == 0);
  CHECK(r.mm->resident_bytes(1) == 4096);
  // further touches neither fault nor migrate; the holder's are local
  for (int i = 0; i < 5; ++i) {
    const Faults again = r.touch(0, 50 + i);
    CHECK(again.faults == 0);
    CHECK(again.maps == 0);
    CHECK(again.batches == 0);
    CHECK(again.remote_gpu_bytes[1] == 32);
    const Faults holder = r.touch(1, 50.5 + i);
    CHECK(holder.remote == 0);
    CHECK(holder.faults == 0);
  }
  CHECK(r.mm->where(r.alloc, 0) == 1);
  // a third peer of GPU 1 maps it too
  const Faults third = r.touch(2, 70);
  CHECK(third.maps == 1);
  CHECK(third.faults == 0);
  CHECK(third.remote_gpu_bytes[1] == 32);
  CHECK(r.stat(0, "pinned") == 1);
  CHECK(r.stat(0, "remote_accesses") == 6);
  CHECK(r.stat(0, "remote_bytes") == 6 * 32);
  CHECK(r.stat(0, "faults") == 2); // host -> 0 and 1 -> 0 before the pin
}

TEST_CASE("uvm thrash: migrations further apart than the lapse are not thrashing",
          "[uvm][thrash]") {
  Rig slow(3, 250, 4, kAllPeers);
  slow.bounce(0, 1, 12, 300); // every migration 300 us after the last
  CHECK_FALSE(slow.mm->pinned(slow.alloc, 0));
  CHECK(slow.touch(0, 12 * 300).faults == 1);
  Rig late(3, 250, 4, kAllPeers); // thrashed, but the next fault comes after the lapse
  late.bounce(0, 1, 4, 10);
  const Faults moved = late.touch(0, 30 + 300);
  CHECK(moved.faults == 1);
  CHECK_FALSE(late.mm->pinned(late.alloc, 0));
  // its record was reset: it takes three close migrations again
  CHECK(late.touch(1, 340).faults == 1);
  CHECK(late.touch(0, 350).faults == 1);
  CHECK(late.touch(1, 360).faults == 1);
  CHECK(late.touch(0, 370).faults == 0);
  CHECK(late.mm->pinned(late.alloc, 0));
  Rig any(3, 0, 4, kAllPeers); // lapse 0: however far apart
  any.bounce(0, 1, 4, 1e6);
  const Faults f = any.touch(0, 4e6);
  CHECK(f.faults == 0);
  CHECK(any.mm->pinned(any.alloc, 0));
}

TEST_CASE("uvm thrash: off by default, a page bounces for ever", "[uvm][thrash]") {
  CHECK(defaults<UvmSpec>().thrash_threshold == 0);
  Rig r(0, 250, 4, kAllPeers);
  r.bounce(0, 1, 50, 1);
  const Faults f = r.touch(0, 50);
  CHECK(f.faults == 1);
  CHECK(f.remote == 0);
  CHECK_FALSE(r.mm->pinned(r.alloc, 0));
  CHECK(r.counter(0, "pinned") == nullptr); // not even declared: stats.json as before
  CHECK(r.counter(0, "faults") != nullptr);
}

TEST_CASE("uvm thrash: users that are not all NVLink peers of its GPU pin it in host memory",
          "[uvm][thrash]") {
  SECTION("no NVLink at all: pinned in host memory at once") {
    Rig r(3, 250, 4);
    r.bounce(0, 1, 4, 10);
    const Faults f = r.touch(0, 40);
    CHECK(r.mm->where(r.alloc, 0) == kHost);
    CHECK(f.to_host[1] == 1); // it leaves GPU 1 for host memory
    CHECK(f.faults == 0);
    CHECK(f.remote_host_bytes == 32);
    CHECK(r.mm->resident_bytes(1) == 0);
    CHECK(r.touch(1, 50).remote_host_bytes == 32); // GPU 1 maps it there too
  }
  SECTION("pinned on GPU 1, then GPU 3 (no NVLink to 1) touches it") {
    Rig r(3, 250, 4, {{0, 1}, {0, 3}});
    r.bounce(0, 1, 4, 10);
    r.touch(0, 40);
    REQUIRE(r.mm->where(r.alloc, 0) == 1);
    const Faults f = r.touch(3, 50);
    CHECK(r.mm->where(r.alloc, 0) == kHost);
    CHECK(r.mm->pinned(r.alloc, 0));
    CHECK(f.to_host[1] == 1);
    CHECK(f.maps == 1);
    CHECK(f.remote_host_bytes == 32);
    const Faults g = r.touch(0, 60); // its mapping of GPU 1's copy went: a new one
    CHECK(g.maps == 1);
    CHECK(g.remote_host_bytes == 32);
    CHECK(g.remote_gpu_bytes[1] == 0);
    CHECK(r.stat(3, "pinned_to_host") == 1);
  }
}

TEST_CASE("uvm thrash: the wave's copies and remote accesses for the executor", "[uvm][thrash]") {
  Rig r(1, 0, 3, {{0, 1}});
  r.bounce(0, 1, 2, 1); // host -> 0 -> 1: one thrash event on entry 0
  Faults f(0, 3, 1e-3);
  r.mm->touch(f, r.alloc, 0);    // pinned on GPU 1, remote over NVLink
  r.mm->touch(f, r.alloc, 1, 1); // entry 1 migrates from the host
  r.mm->touch(f, r.alloc, 0);    // a second access
  r.mm->service(f, 1e-3);
  rt::Wave w;
  add_to_wave(f, 4096, 0, w);
  REQUIRE(w.copies.size() == 1);
  CHECK(w.copies[0].kind == rt::OpKind::H2D);
  REQUIRE(w.remote.size() == 1);
  CHECK(w.remote[0].kind == rt::OpKind::P2P);
  CHECK(w.remote[0].peer == 1);
  CHECK(w.remote[0].bytes == 64);
  // GPU 2 has no NVLink to 1: the page goes to host memory, a D2H leaving GPU 1
  Faults g(2, 3, 2e-3);
  r.mm->touch(g, r.alloc, 0);
  r.mm->service(g, 2e-3);
  rt::Wave v;
  add_to_wave(g, 4096, 0, v);
  REQUIRE(v.copies.size() == 1);
  CHECK(v.copies[0].kind == rt::OpKind::D2H);
  CHECK(v.copies[0].peer == 1);
  REQUIRE(v.remote.size() == 1);
  CHECK(v.remote[0].kind == rt::OpKind::H2D);
}

TEST_CASE("uvm thrash: a sampled entry's access counts its sample", "[uvm][thrash]") {
  Rig r(3, 250, 4, kAllPeers, 16);
  r.bounce(0, 1, 4, 10);
  const Faults f = r.touch(0, 40);
  CHECK(f.pinned == 16);
  CHECK(f.maps == 16);
  CHECK(f.remote == 16);
  CHECK(f.remote_gpu_bytes[1] == 16 * 32);
}

TEST_CASE("uvm thrash: a streaming touch of a pinned page moves its bytes", "[uvm][thrash]") {
  Rig r(3, 250, 4, kAllPeers);
  for (int i = 0; i < 4; ++i) {
    Faults f(i % 2 ? 1 : 0, 4, i * 10 * kUs);
    r.mm->touch(f, r.alloc, 0, 2);
    r.mm->service(f, i * 10 * kUs);
  }
  Faults f(0, 4, 40 * kUs);
  r.mm->touch(f, r.alloc, 0, 2);
  r.mm->service(f, 40 * kUs);
  CHECK(f.faults == 0);
  CHECK(f.remote == 2);
  CHECK(f.remote_gpu_bytes[1] == 2 * 4096);
}

TEST_CASE("uvm thrash: pin_at = hub moves the page to a GPU all its users reach (what-if)",
          "[uvm][thrash]") {
  // GPU 0 has an NVLink to each of 1-4; 1 and 4 have none between them (DGX-1, 5 GPUs)
  const std::vector<std::pair<uint32_t, uint32_t>> links = {{0, 1}, {0, 2}, {0, 3}, {0, 4},
                                                            {1, 2}, {1, 3}, {2, 3}};
  Rig driver(3, 250, 5, links);
  driver.bounce(1, 4, 4, 10);
  driver.touch(1, 40);
  CHECK(driver.mm->where(driver.alloc, 0) == kHost);
  Rig r(3, 250, 5, links, 1, "hub");
  r.bounce(1, 4, 4, 10); // host -> 1 -> 4 -> 1 -> 4
  const Faults f = r.touch(1, 40);
  CHECK(r.mm->where(r.alloc, 0) == 0);
  REQUIRE(f.to_hub.size() == 1);
  CHECK(f.to_hub[0].from == 4);
  CHECK(f.to_hub[0].to == 0);
  CHECK(f.remote_gpu_bytes[0] == 32);
  CHECK(f.remote_host_bytes == 0);
  CHECK(r.mm->resident_bytes(4) == 0);
  CHECK(r.mm->resident_bytes(0) == 4096);
  rt::Wave w;
  add_to_wave(f, 4096, 0, w);
  REQUIRE(w.copies.size() == 1);
  CHECK(w.copies[0].kind == rt::OpKind::P2P);
  CHECK(w.copies[0].peer == 4);
  CHECK(w.copies[0].to == 0);
  const Faults g = r.touch(4, 50); // GPU 4 maps it on GPU 0
  CHECK(g.maps == 1);
  CHECK(g.remote_gpu_bytes[0] == 32);
  CHECK(r.touch(0, 60).remote == 0); // local to the hub
  CHECK(r.stat(1, "pinned_to_hub") == 1);
  CHECK(driver.counter(1, "pinned_to_hub") == nullptr);
}

TEST_CASE("uvm thrash: the throttling phase naps all GPUs but one, then pins", "[uvm][thrash]") {
  // any lapse, no NVLink, pinned after 2 naps; a period is thrash_nap_us = 500 us
  Rig r(3, 0, 4, {}, 1, "driver", 2);
  r.bounce(0, 1, 4, 10); // 3 thrash events, the page on GPU 1
  Faults f = r.touch(0, 40);
  CHECK(f.throttled == 0); // opens a period (until 540 us) as its free GPU: migrates
  CHECK(r.mm->where(r.alloc, 0) == 0);
  f = r.touch(1, 50); // not the free GPU: naps until the period ends, then migrates
  CHECK(f.throttled == 1);
  CHECK(f.stall_s == Approx(490 * kUs));
  CHECK(r.mm->where(r.alloc, 0) == 1);
  CHECK_FALSE(r.mm->pinned(r.alloc, 0));
  CHECK(r.touch(0, 60).throttled == 0);               // the free GPU again
  CHECK(r.touch(1, 70).stall_s == Approx(470 * kUs)); // napping already: no new nap counted
  f = r.touch(0, 600); // a new period; GPU 0 was the last free GPU, so now none is
  CHECK(f.throttled == 1);
  CHECK(f.stall_s == Approx(500 * kUs));
  CHECK(r.touch(1, 610).throttled == 0); // the period's first other fault: its free GPU
  f = r.touch(0, 620);                   // 2 naps: pinned, in host memory (no NVLink)
  CHECK(r.mm->pinned(r.alloc, 0));
  CHECK(r.mm->where(r.alloc, 0) == kHost);
  CHECK(f.throttled == 0);
  CHECK(f.remote_host_bytes == 32);
  CHECK(r.stat(1, "throttled") == 2); // its touches at 50 and 70 us
  CHECK(r.stat(0, "throttled") == 1);
  CHECK(r.stat(1, "nap_ps") > 0);
}

TEST_CASE("uvm thrash: users that are NVLink peers of its GPU pin it at once, unthrottled",
          "[uvm][thrash]") {
  Rig r(3, 0, 4, kAllPeers, 1, "driver", 10);
  r.bounce(0, 1, 4, 10);
  const Faults f = r.touch(0, 40);
  CHECK(r.mm->pinned(r.alloc, 0));
  CHECK(r.mm->where(r.alloc, 0) == 1);
  CHECK(f.throttled == 0);
  CHECK(f.remote_gpu_bytes[1] == 32);
}

TEST_CASE("uvm thrash: a pinned page is unpinned thrash_pin_ms after, and migrates",
          "[uvm][thrash]") {
  Rig r(3, 0, 4, kAllPeers, 1, "driver", 0, 1.0);
  r.bounce(0, 1, 4, 10);
  r.touch(0, 40); // pinned on GPU 1 at 40 us
  REQUIRE(r.mm->pinned(r.alloc, 0));
  CHECK(r.touch(0, 1000).remote_gpu_bytes[1] == 32); // 960 us later: still pinned
  const Faults f = r.touch(0, 1100);                 // 1060 us: unpinned, migrates here
  CHECK(f.unpinned == 1);
  CHECK(f.faults == 1);
  CHECK_FALSE(r.mm->pinned(r.alloc, 0));
  CHECK(r.mm->where(r.alloc, 0) == 0);
  CHECK(r.stat(0, "unpinned") == 1);
}

TEST_CASE("uvm thrash: throttling and unpinning off by default, their statistics undeclared",
          "[uvm][thrash]") {
  Rig r(3, 0, 4);
  r.bounce(0, 1, 4, 10);
  CHECK(r.touch(0, 40).throttled == 0);
  CHECK(r.mm->pinned(r.alloc, 0));
  CHECK(r.counter(0, "throttled") == nullptr);
  CHECK(r.counter(0, "unpinned") == nullptr);
}
