// Any initiator (issue 12 item 3): a block that is not an SM, written here
// on the framework's ports and registered under a new type name, joins a
// platform by configuration alone (a topology block bound to an extra
// crossbar input) and copies data through the network while the SMs run a
// checked workload. Replies route by the crossbar input a request came in
// on, so the copy engine's data and the workload's must both come back right.
#include "run_helpers.hpp"
#include "tlmgpu/sim/builder.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace tlmgpu;
using namespace tlmgpu::test;
using namespace sc_core;

namespace {

constexpr Addr kSrc = 0x80000000, kDst = 0x90000000; // far above the workload's buffers
constexpr unsigned kLines = 16;

uint8_t pattern(unsigned line, unsigned byte) {
  return uint8_t(line * 31 + byte * 7 + 1);
}

// Writes kLines lines at kSrc, copies them to kDst (load, then store) and
// reads kDst back: 3 * kLines requests, one at a time, as a DMA engine would.
class CopyEngine : public sc_module {
public:
  CopyEngine(sc_module_name n, SimContext& ctx, StatGroup& parent, double clock_mhz)
      : sc_module(n), port("mem", 4, [this](Payload&) { answered_.notify(SC_ZERO_TIME); }),
        ctx_(ctx), clk_(clock_mhz), stats_(parent, basename()),
        copied_(stats_.counter("lines_copied", "lines", "lines read back equal to the source")),
        wrong_(stats_.counter("mismatches", "lines", "lines read back different")) {
    SC_HAS_PROCESS(CopyEngine);
    SC_THREAD(run);
  }
  InitiatorPort port;

private:
  // One line request; returns after its response (AT) or its delay (lt).
  void transact(AccessKind kind, Addr line, uint8_t* data) {
    const unsigned bytes = ctx_.net.line_bytes;
    GpuAccess a;
    a.kind = kind;
    a.src_sm = 0xffff; // no SM: nothing on the way may route or index by it
    a.sector_mask = (1u << (bytes / ctx_.net.sector_bytes)) - 1;
    a.txn_id = ctx_.pool.next_txn_id();
    GpuPayload* t = ctx_.pool.allocate();
    t->setup(kind == AccessKind::Store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, line,
             bytes, a);
    if (kind == AccessKind::Store) {
      std::memcpy(t->data(), data, bytes);
      std::memset(t->byte_enable(), 0xff, bytes);
      t->enable_bytes(bytes);
    }
    if (ctx_.at()) {
      port.send(*t);
      wait(answered_);
    } else {
      sc_time d = SC_ZERO_TIME;
      port.b_transport(*t, d);
      wait(d);
    }
    if (t->get_response_status() != tlm::TLM_OK_RESPONSE) ++wrong_;
    if (kind == AccessKind::Load) std::memcpy(data, t->data(), bytes);
    t->release();
  }

  void run() {
    const unsigned bytes = ctx_.net.line_bytes;
    std::vector<uint8_t> buf(bytes);
    wait(clk_.cycles(100)); // while the SMs are busy
    for (unsigned l = 0; l < kLines; ++l) {
      for (unsigned b = 0; b < bytes; ++b)
        buf[b] = pattern(l, b);
      transact(AccessKind::Store, kSrc + l * bytes, buf.data());
    }
    for (unsigned l = 0; l < kLines; ++l) {
      transact(AccessKind::Load, kSrc + l * bytes, buf.data());
      transact(AccessKind::Store, kDst + l * bytes, buf.data());
    }
    for (unsigned l = 0; l < kLines; ++l) {
      transact(AccessKind::Load, kDst + l * bytes, buf.data());
      bool same = true;
      for (unsigned b = 0; b < bytes; ++b)
        same = same && buf[b] == pattern(l, b);
      ++(same ? copied_ : wrong_);
    }
  }

  SimContext& ctx_;
  Clock clk_;
  StatGroup stats_;
  Counter &copied_, &wrong_;
  sc_event answered_;
};

void register_copy_engine() {
  BlockType b;
  b.name = "test_copy_engine";
  b.description = "test: copies lines through the network (a non-SM initiator)";
  b.ports = {{"mem", PortDir::Initiator, false, "its requests, into a crossbar input"}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_module> {
    return std::make_unique<CopyEngine>(a.name.c_str(), a.ctx, a.parent,
                                        a.ctx.platform.sm.clock_mhz);
  };
  b.socket = [](sc_module& m, const std::string&, uint32_t) {
    return SocketRef{&static_cast<CopyEngine&>(m).port.socket, nullptr};
  };
  register_block(std::move(b));
}

void check(TimingMode mode) {
  register_copy_engine();
  const RunResult r = run("tiny", "histogram", mode, {},
                          {"topology.blocks.dma.type=test_copy_engine",
                           "topology.blocks.xbar.ports.in=sm.count + 1",
                           "topology.bind.dma.mem=xbar.in[sm.count]"});
  INFO(r.summary);
  REQUIRE(r.rc == 0); // the histogram checked: the SMs' replies came back to the SMs
  const auto& dma = r.stats["total"]["gpu"]["dma"];
  CHECK(dma["lines_copied"]["value"].get<double>() == kLines);
  CHECK(dma["mismatches"]["value"].get<double>() == 0);
}

} // namespace

TEST_CASE("a non-SM initiator on the crossbar: functional") {
  check(TimingMode::Functional);
}
TEST_CASE("a non-SM initiator on the crossbar: lt") {
  check(TimingMode::LT);
}
TEST_CASE("a non-SM initiator on the crossbar: at") {
  check(TimingMode::AT);
}
