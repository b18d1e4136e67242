// A non-memory target by configuration (issue 12 item 3): the address map
// routes a device window to the crossbar's dev[0] port, where a register
// block (models/mmio) performs atomics and stores on its own bytes. Every
// thread's atomicAdd and one store land there, not in L2 or DRAM.
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"
#include "tlmgpu/simt/warp.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

constexpr Addr kRegs = 0x1000000; // address_map.device_base (default)

WarpTask poke(Warp& w) {
  co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(kRegs), Lanes<uint32_t>(1u), w.active(),
                              MemOrder::Relaxed, Scope::Device);
  // A device-scope red: what a LAB would buffer, were this memory.
  co_await w.red<uint32_t>(AtomicOp::Add, Lanes<Addr>(kRegs + 4), Lanes<uint32_t>(1u), w.active(),
                           MemOrder::Commutative, Scope::Device);
  if (w.cta_linear() == 0 && w.warp_in_cta() == 0)
    co_await w.store<uint32_t>(Lanes<Addr>(kRegs + 64), Lanes<uint32_t>(0xC0FFEEu), Mask::lane(0));
}

// Three loads of one register: each must reach the register block (an L1
// that cached the window would answer the last two itself).
WarpTask peek(Warp& w) {
  for (int i = 0; i < 3; ++i)
    co_await w.load<uint32_t>(Lanes<Addr>(kRegs + 128), Mask::lane(0));
}

void check(TimingMode mode, const std::vector<std::string>& sets = {}) {
  const PlatformSpec p = load_platform(platform_path("examples/topology/tiny-mmio.json"), sets);
  uint32_t count = 0, reds = 0, word = 0;
  const ProgramResult r = run_host_program(p, mode, 1, [&](HostModule& h) {
    h.launch(KernelLaunch{"poke", {4, 1, 1}, {128, 1, 1}, 0, 16, [](Warp& w) { return poke(w); }});
    h.synchronize();
    h.launch(KernelLaunch{"peek", {1, 1, 1}, {32, 1, 1}, 0, 16, [](Warp& w) { return peek(w); }});
    h.synchronize();
    h.gpu().debug_read(kRegs, reinterpret_cast<uint8_t*>(&count), 4);
    h.gpu().debug_read(kRegs + 4, reinterpret_cast<uint8_t*>(&reds), 4);
    h.gpu().debug_read(kRegs + 64, reinterpret_cast<uint8_t*>(&word), 4);
  });
  CHECK(count == 4 * 128);
  CHECK(reds == 4 * 128);
  CHECK(word == 0xC0FFEEu);
  const auto& gpu = r.stats["total"]["gpu"];
  // Lanes of one instruction on one word are serialised by the coalescer:
  // one request each.
  CHECK(gpu["regs_0"]["atomics"]["value"].get<double>() == 2 * 4 * 128);
  CHECK(gpu["regs_0"]["writes"]["value"].get<double>() == 1);
  CHECK(gpu["regs_0"]["reads"]["value"].get<double>() == 3); // never cached by the L1
  double l2_atomics = 0;
  for (auto& [k, v] : gpu.items())
    if (k.rfind("l2_", 0) == 0) l2_atomics += v["atomic_lane_ops"]["value"].get<double>();
  CHECK(l2_atomics == 0);
}

} // namespace

TEST_CASE("a device window reaches its register block: functional") {
  check(TimingMode::Functional);
}
TEST_CASE("a device window reaches its register block: lt") {
  check(TimingMode::LT);
}
TEST_CASE("a device window reaches its register block: at") {
  check(TimingMode::AT);
}
// A LAB buffers device-scope atomics of memory, never of a device window.
TEST_CASE("a device window's atomics pass a LAB by: functional") {
  check(TimingMode::Functional, {"lab.entries=64"});
}
TEST_CASE("a device window's atomics pass a LAB by: lt") {
  check(TimingMode::LT, {"lab.entries=64"});
}
TEST_CASE("a device window's atomics pass a LAB by: at") {
  check(TimingMode::AT, {"lab.entries=64"});
}
