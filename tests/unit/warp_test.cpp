// The SIMT warp API driven by hand, as the SM drives it: resume, read
// pending(), write results(), complete(), resume.
#include "tlmgpu/simt/warp.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <stdexcept>
#include <vector>

using namespace tlmgpu;

namespace {

using Kind = WarpInstr::Kind;

// A functional "SM": performs loads and atomics against a word map and
// records every instruction, in order.
struct Driver {
  std::map<Addr, uint32_t> mem;
  std::vector<WarpInstr> log;

  void run(Warp& w, WarpTask& t, unsigned max_steps = 1000) {
    t.resume();
    for (unsigned i = 0; i < max_steps && !t.done(); ++i) {
      const WarpInstr* in = w.pending();
      REQUIRE(in != nullptr);
      log.push_back(*in);
      in->mask.for_each([&](unsigned l) {
        uint32_t& word = mem[in->addr[l]];
        if (in->kind == Kind::Load) w.results()[l] = word;
        if (in->kind == Kind::Store) word = uint32_t(in->operand[l]);
        if (in->kind == Kind::Atomic) {
          w.results()[l] = word; // lane order, as the coalescer serializes same-word lanes
          word += uint32_t(in->operand[l]);
        }
      });
      w.complete();
      t.resume();
    }
    REQUIRE(t.done());
    CHECK(w.pending() == nullptr);
    CHECK(w.exited());
  }
};

struct HistArgs {
  Addr in, hist;
  uint64_t n;
};

// LAB paper Listing 1: for (i = tid; i < n; i += stride) atomicAdd(&hist[in[i]], 1).
WarpTask histogram(Warp& w, const HistArgs& a) {
  for (Lanes<uint64_t> i = w.global_thread_id();; i += w.grid_threads()) {
    Mask m = (i < a.n) & w.active();
    if (m.empty()) co_return;
    Lanes<uint32_t> px = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, i), m);
    co_await w.compute(2);
    co_await w.atomic<uint32_t>(AtomicOp::Add, address_of<uint32_t>(a.hist, px), 1u, m,
                                MemOrder::Commutative, Scope::Device);
  }
}

Warp::Geometry geom(Dim3 grid, Dim3 block, Index3 cta, uint32_t warp, uint32_t size = 32) {
  return {grid, block, cta, warp, size};
}

} // namespace

TEST_CASE("warp: ids per lane and partial warps", "[warp]") {
  Warp w(geom({3, 2, 1}, {100, 1, 1}, {1, 1, 0}, 3));
  CHECK(w.warps_per_cta() == 4);
  CHECK(w.cta_linear() == 4); // x + y * grid.x
  CHECK(w.global_warp() == 4 * 4 + 3);
  CHECK(w.active() == Mask::all(4)); // threads 96..99 of 100
  CHECK(w.thread_idx()[0] == 96);
  CHECK(w.global_thread_id()[2] == 4 * 100 + 98);
  CHECK(w.grid_threads() == 600);

  Warp v(geom({1, 1, 1}, {8, 4, 2}, {0, 0, 0}, 1)); // threads 32..63
  CHECK(v.active() == Mask::all(32));
  CHECK(v.tid_x()[0] == 0);
  CHECK(v.tid_y()[0] == 0);
  CHECK(v.tid_z()[0] == 1);
  CHECK(v.tid_x()[13] == 5); // thread 45 = (5, 1, 1)
  CHECK(v.tid_y()[13] == 1);
  CHECK(v.tid_z()[13] == 1);

  Warp narrow(geom({1, 1, 1}, {40, 1, 1}, {}, 0, 16)); // a 16-wide platform
  CHECK(narrow.warps_per_cta() == 3);
  CHECK(narrow.active() == Mask::all(16));

  Warp wide(geom({1, 1, 1}, {100, 1, 1}, {}, 1, 64)); // a wavefront: threads 64..99
  CHECK(wide.warps_per_cta() == 2);
  CHECK(wide.active() == Mask::all(36));
  CHECK(wide.thread_idx()[35] == 99);
  Warp full(geom({1, 1, 1}, {128, 1, 1}, {}, 1, 64));
  CHECK(full.active() == Mask::all(64));
  CHECK(full.active().bits() == ~uint64_t{0});
  CHECK(full.global_thread_id()[63] == 127);

  CHECK_THROWS_AS(Warp(geom({2, 1, 1}, {64, 1, 1}, {2, 0, 0}, 0)), std::invalid_argument);
  CHECK_THROWS_AS(Warp(geom({2, 1, 1}, {64, 1, 1}, {0, 0, 0}, 2)), std::invalid_argument);
  CHECK_THROWS_AS(Warp(geom({2, 1, 1}, {64, 1, 1}, {0, 0, 0}, 0, 65)), std::invalid_argument);
}

TEST_CASE("warp: lanes and masks", "[warp]") {
  Lanes<uint32_t> a = lane_index();
  Mask odd = (a % 2) == 1;
  CHECK(odd.bits() == 0xaaaaaaaaaaaaaaaau); // all 64 slots, whatever the warp's width
  CHECK(odd.count() == 32);
  CHECK((odd & Mask::all(32)).count() == 16);
  CHECK(Mask::lane(63).bits() == uint64_t{1} << 63);
  CHECK(Mask::lane(63).first() == 63);
  CHECK(Mask(0xf0f0).below(8) == Mask(0xf0));
  CHECK(odd.first() == 1);
  CHECK((a < 4) == Mask::all(4));
  CHECK(((a * 3 + 1)[5]) == 16);
  CHECK(select(odd, a, Lanes<uint32_t>(99))[2] == 99);
  CHECK(address_of<double>(0x100, a)[3] == 0x118);
  std::vector<unsigned> seen;
  Mask(0x8000000080000005u).for_each([&](unsigned l) { seen.push_back(l); });
  CHECK(seen == std::vector<unsigned>{0, 2, 31, 63});
  CHECK(to_bits(-1.5f) == 0xbfc00000u);
  CHECK(from_bits<float>(0xbfc00000u) == -1.5f);
  CHECK(to_bits(int8_t(-1)) == 0xffu); // zero-extended raw bits
  CHECK(from_bits<int16_t>(0xfffeu) == -2);
}

TEST_CASE("warp: a load/store kernel round trip", "[warp]") {
  struct Args {
    Addr src, dst;
  };
  auto copy_plus_one = [](Warp& w, const Args& a) -> WarpTask {
    Lanes<uint64_t> i = w.thread_idx().as<uint64_t>();
    // Mask::all() names lanes 12..31 too, which this block does not have.
    Lanes<float> v = co_await w.load<float>(address_of<float>(a.src, i), Mask::all());
    co_await w.store<float>(address_of<float>(a.dst, i), v + 1.0f, w.active() & (i < 8),
                            MemOrder::Release, Scope::System);
  };
  Warp w(geom({1, 1, 1}, {12, 1, 1}, {}, 0));
  const Args args{0x1000, 0x2000};
  WarpTask t = copy_plus_one(w, args);
  CHECK(w.pending() == nullptr); // not started: initial suspend
  t.resume();
  const WarpInstr* in = w.pending();
  REQUIRE(in);
  CHECK(in->kind == Kind::Load);
  CHECK(in->mask == Mask::all(12)); // only the block's 12 threads
  CHECK(in->size == 4);
  CHECK(in->type == DataType::F32);
  CHECK(in->addr[11] == 0x1000 + 44);
  CHECK(in->results == &w.results());
  in->mask.for_each([&](unsigned l) { w.results()[l] = to_bits(float(l) * 0.5f); });
  w.complete();
  t.resume();
  in = w.pending();
  REQUIRE(in);
  CHECK(in->kind == Kind::Store);
  CHECK(in->mask == Mask::all(8));
  CHECK(in->order == MemOrder::Release);
  CHECK(in->scope == Scope::System);
  CHECK(from_bits<float>(in->operand[3]) == 2.5f);
  w.complete();
  t.resume();
  CHECK(t.done());
  CHECK_NOTHROW(t.rethrow_if_failed());
}

TEST_CASE("warp: the grid-stride histogram issues load, compute, atomic per step", "[warp]") {
  // 2 CTAs x 64 threads, n = 300: warp 1 of CTA 0 covers 32..63, 160..191 and
  // 288..299 (a partial step of 12 lanes), then leaves the loop.
  const HistArgs a{0x10000, 0x80000, 300};
  Warp w(geom({2, 1, 1}, {64, 1, 1}, {0, 0, 0}, 1));
  WarpTask t = histogram(w, a);
  Driver d;
  for (uint32_t i = 0; i < 300; ++i)
    d.mem[a.in + 4 * i] = i % 7;
  d.run(w, t);
  REQUIRE(d.log.size() == 9);
  const uint64_t first[] = {32, 160, 288};
  for (unsigned s = 0; s < 3; ++s) {
    const WarpInstr& ld = d.log[3 * s];
    const WarpInstr& c = d.log[3 * s + 1];
    const WarpInstr& at = d.log[3 * s + 2];
    CHECK(ld.kind == Kind::Load);
    CHECK(c.kind == Kind::Compute);
    CHECK(c.count == 2);
    CHECK(at.kind == Kind::Atomic);
    CHECK(at.op == AtomicOp::Add);
    CHECK(at.order == MemOrder::Commutative);
    CHECK(at.scope == Scope::Device);
    CHECK(ld.mask == (s < 2 ? Mask::all(32) : Mask::all(12)));
    CHECK(at.mask == ld.mask);
    CHECK(ld.addr[0] == a.in + 4 * first[s]);
    at.mask.for_each([&](unsigned l) {
      CHECK(at.addr[l] == a.hist + 4 * ((first[s] + l) % 7));
      CHECK(at.operand[l] == 1);
    });
  }
  // 32 + 32 + 12 elements counted.
  uint32_t total = 0;
  for (uint32_t b = 0; b < 7; ++b)
    total += d.mem[a.hist + 4 * b];
  CHECK(total == 76);
}

TEST_CASE("warp: all warps of a grid compute the CPU histogram", "[warp]") {
  const HistArgs a{0x10000, 0x80000, 1000};
  Driver d;
  std::vector<uint32_t> ref(16, 0);
  for (uint32_t i = 0; i < a.n; ++i) {
    d.mem[a.in + 4 * i] = (i * 2654435761u) % 16;
    ++ref[(i * 2654435761u) % 16];
  }
  for (uint32_t cta = 0; cta < 3; ++cta)
    for (uint32_t wi = 0; wi < 3; ++wi) { // 96-thread blocks: 3 warps
      Warp w(geom({3, 1, 1}, {96, 1, 1}, {cta, 0, 0}, wi));
      WarpTask t = histogram(w, a);
      d.run(w, t);
    }
  for (uint32_t b = 0; b < 16; ++b)
    CHECK(d.mem[a.hist + 4 * b] == ref[b]);
}

namespace {
// A device function: CAS loop that increments a counter, as in a lock-free
// queue. Retries while any lane lost.
WarpTask cas_increment(Warp& w, Addr counter, Mask m) {
  Lanes<uint32_t> seen(0);
  while (m.any()) {
    Lanes<uint32_t> old = co_await w.atomic_cas<uint32_t>(Lanes<Addr>(counter), seen, seen + 1, m);
    m &= old != seen; // winners leave
    seen = old;
  }
}
WarpTask uses_helper(Warp& w, Addr counter) {
  co_await cas_increment(w, counter, w.active());
  co_await w.fence(Scope::Device);
}
} // namespace

TEST_CASE("warp: nested WarpTasks run on the same warp", "[warp]") {
  Warp w(geom({1, 1, 1}, {4, 1, 1}, {}, 0));
  WarpTask t = uses_helper(w, 0x40);
  t.resume();
  uint32_t counter = 0;
  unsigned cas = 0;
  while (w.pending() && w.pending()->kind == Kind::Atomic) {
    const WarpInstr* in = w.pending();
    CHECK(in->op == AtomicOp::Cas);
    in->mask.for_each([&](unsigned l) {
      w.results()[l] = counter;
      if (counter == in->compare[l]) counter = uint32_t(in->operand[l]);
    });
    ++cas;
    w.complete();
    t.resume();
  }
  CHECK(counter == 4);
  CHECK(cas == 4); // one lane wins per round
  REQUIRE(w.pending());
  CHECK(w.pending()->kind == Kind::Fence);
  CHECK(w.pending()->order == MemOrder::SeqCst);
  w.complete();
  t.resume();
  CHECK(t.done());
}

TEST_CASE("warp: exceptions inside a kernel reach the SM", "[warp]") {
  auto thrower = [](Warp& w) -> WarpTask {
    co_await w.compute(1);
    throw std::runtime_error("kernel bug");
  };
  Warp w(geom({1, 1, 1}, {32, 1, 1}, {}, 0));
  WarpTask t = thrower(w);
  t.resume();
  CHECK_FALSE(t.failed());
  w.complete();
  t.resume();
  CHECK(t.done());
  CHECK(w.exited());
  CHECK_THROWS_WITH(t.rethrow_if_failed(), "kernel bug");

  // An op the memory system cannot do fails at the instruction, inside a nested call.
  auto bad_and = [](Warp& w) -> WarpTask {
    co_await w.atomic<float>(AtomicOp::And, Lanes<Addr>(0), 1.0f, w.active());
  };
  auto outer = [&](Warp& w) -> WarpTask { co_await bad_and(w); };
  Warp v(geom({1, 1, 1}, {32, 1, 1}, {}, 0));
  WarpTask u = outer(v);
  u.resume();
  CHECK(u.done());
  CHECK_THROWS_WITH(u.rethrow_if_failed(), Catch::Contains("and") && Catch::Contains("f32"));
}

TEST_CASE("warp: misuse is reported", "[warp]") {
  auto forgets_await = [](Warp& w) -> WarpTask {
    (void)w.compute(1); // created, never awaited
    co_await w.compute(2);
  };
  Warp w(geom({1, 1, 1}, {32, 1, 1}, {}, 0));
  WarpTask t = forgets_await(w);
  t.resume();
  CHECK_THROWS_WITH(t.rethrow_if_failed(), Catch::Contains("never co_awaited"));

  auto two = [](Warp& w) -> WarpTask {
    co_await w.compute(1);
    co_await w.compute(1);
  };
  Warp v(geom({1, 1, 1}, {32, 1, 1}, {}, 0));
  WarpTask u = two(v);
  u.resume();
  CHECK_THROWS_WITH(u.resume(), Catch::Contains("complete()")); // resume without complete
  v.complete();
  u.resume();
  v.complete();
  u.resume();
  CHECK(u.done());
  CHECK_THROWS_AS(u.resume(), std::logic_error);

  auto bad_order = [](Warp& w) -> WarpTask {
    co_await w.load<uint32_t>(Lanes<Addr>(0), w.active(), MemOrder::Release);
  };
  Warp x(geom({1, 1, 1}, {32, 1, 1}, {}, 0));
  WarpTask b = bad_order(x);
  b.resume();
  CHECK_THROWS_WITH(b.rethrow_if_failed(), Catch::Contains("load cannot have order release"));
}

TEST_CASE("warp: shared memory, barrier and red instructions", "[warp]") {
  auto k = [](Warp& w) -> WarpTask {
    const Lanes<Addr> off = address_of<uint32_t>(0, w.thread_idx());
    co_await w.shared_store<uint32_t>(off, 0u, w.active());
    co_await w.barrier();
    Lanes<int32_t> old =
        co_await w.shared_atomic<int32_t>(AtomicOp::Max, Lanes<Addr>(0), -5, w.active());
    co_await w.red<uint64_t>(AtomicOp::Add, Lanes<Addr>(0x100), uint64_t(old[0] + 10), Mask(1));
    Lanes<uint16_t> h = co_await w.shared_load<uint16_t>(off, w.active());
    co_await w.compute(h[1]);
  };
  Warp w(geom({1, 1, 1}, {32, 1, 1}, {}, 0));
  WarpTask t = k(w);
  std::vector<Kind> kinds;
  t.resume();
  while (!t.done()) {
    const WarpInstr* in = w.pending();
    kinds.push_back(in->kind);
    if (in->kind == Kind::SharedAtomic) {
      CHECK(in->type == DataType::S32);
      CHECK(in->scope == Scope::Cta);
      CHECK(from_bits<int32_t>(in->operand[0]) == -5);
      w.results()[0] = to_bits(int32_t(-7));
    }
    if (in->kind == Kind::Red) {
      CHECK(in->type == DataType::U64);
      CHECK(in->size == 8);
      CHECK(in->operand[0] == 3);
      CHECK(in->mask == Mask(1));
    }
    if (in->kind == Kind::SharedLoad) w.results()[1] = 0xabcd;
    if (in->kind == Kind::Compute) CHECK(in->count == 0xabcd);
    w.complete();
    t.resume();
  }
  t.rethrow_if_failed();
  CHECK(kinds == std::vector<Kind>{Kind::SharedStore, Kind::Barrier, Kind::SharedAtomic, Kind::Red,
                                   Kind::SharedLoad, Kind::Compute});
}
