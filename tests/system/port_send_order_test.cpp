// InitiatorPort::send (issue 13): a request that need not wait reaches its
// target inside send(), in the sender's delta, so two ports that send at one
// time arrive in the order they sent. Before, every send went through a
// zero-delay notification: it arrived one delta later, and SystemC ran that
// delta's methods from the back, so the second sender's request came first.
// A request sent while END_REQ is outstanding still waits for it.
#include "tlmgpu/sim/ports.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace tlmgpu;
using namespace sc_core;

namespace {

struct Arrival {
  std::string port;
  uint64_t delta;
};

// Two initiators, each bound to its own target of capacity 1 whose requests
// are never taken: a second request on one socket must wait for END_REQ.
class Rig : public sc_module {
public:
  explicit Rig(sc_module_name n)
      : sc_module(n), ta("ta", 1, hooks("a")), tb("tb", 1, hooks("b")), a("a", 4, [](Payload&) {}),
        b("b", 4, [](Payload&) {}) {
    a.socket.bind(ta.socket);
    b.socket.bind(tb.socket);
    SC_HAS_PROCESS(Rig);
    SC_THREAD(run);
  }
  TargetPort ta, tb;
  InitiatorPort a, b;
  std::vector<Arrival> arrivals;
  uint64_t send_delta = 0;

private:
  TargetPort::Hooks hooks(const std::string& name) {
    TargetPort::Hooks h;
    h.b_transport = [](Payload&, sc_time&) {};
    h.debug = [](Payload&) { return 0u; };
    h.on_request = [this, name] { arrivals.push_back({name, sc_delta_count()}); };
    return h;
  }
  void run() {
    wait(10, SC_NS);
    send_delta = sc_delta_count();
    a.send(p_[0]);
    b.send(p_[1]);
    a.send(p_[2]); // ta holds p_[0] and is full: p_[2] is withheld END_REQ, not lost
  }
  tlm::tlm_generic_payload p_[3];
};

} // namespace

TEST_CASE("ports: a request that need not wait arrives at once, in send order", "[ports]") {
  Rig rig("rig");
  sc_start(100, SC_NS);
  REQUIRE(rig.arrivals.size() == 2); // p_[2] reached ta's socket but not its queue
  CHECK(rig.arrivals[0].port == "a");
  CHECK(rig.arrivals[1].port == "b");
  CHECK(rig.arrivals[0].delta == rig.send_delta);
  CHECK(rig.arrivals[1].delta == rig.send_delta);
  CHECK(rig.ta.queued() == 1);
  CHECK(rig.ta.backpressured() == 1); // the third request waits for room, as before
  CHECK(rig.a.sent() == 2);
  CHECK(rig.b.sent() == 1);
}
