// The copy directory's state machine and the runtime's decisions without an
// executor (seed-004 §7.6 T-DIR-1, T-DIR-2, §4.2 reservations): operations
// are run here in stream order by hand.
#include "models/runtime/runtime.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::rt;

namespace {

struct Rig {
  StatGroup root;
  RuntimeSpec spec = defaults<RuntimeSpec>();
  std::unique_ptr<Runtime> rt;
  explicit Rig(uint64_t capacity = 1 << 30, uint32_t gpus = 4) {
    rt = std::make_unique<Runtime>(spec, gpus, capacity, 1, 2, 1, root);
  }
  // Launches every ready GPU task as worker 0 and returns their ops.
  std::vector<StreamOp> launch_all() {
    std::vector<StreamOp> ops;
    while (auto t = rt->next_gpu_task(0)) {
      const int g = rt->find_gpu(*t);
      REQUIRE(g >= 0);
      for (StreamOp& op : rt->launch(*t, uint32_t(g), 0))
        ops.push_back(std::move(op));
    }
    return ops;
  }
  static size_t count(const std::vector<StreamOp>& ops, OpKind k, Cause c) {
    size_t n = 0;
    for (const StreamOp& op : ops)
      n += op.kind == k && op.cause == c;
    return n;
  }
  static void run(std::vector<StreamOp>& ops) {
    for (StreamOp& op : ops)
      if (op.effect) op.effect();
  }
  TaskSpec on(int gpu, Guid db, Mode m = Mode::Normal) {
    TaskSpec t;
    t.name = "t";
    t.gpu_to_run_on = gpu;
    t.deps = {{db, m}};
    return t;
  }
};

} // namespace

TEST_CASE("directory: a copy invalidated while pinned is freed at its last unpin", "[runtime]") {
  std::vector<Guid> freed;
  GpuDirectory d([&](std::unique_ptr<CopyEntry> e) { freed.push_back(e->db); });
  CopyEntry& e = d.reserve(7, 100, 1);
  REQUIRE(d.pin(7, 2) == &e);
  d.invalidate(7, false);
  CHECK(d.lookup(7) == nullptr); // invisible: the next access misses
  CHECK(freed.empty());
  d.unpin(e, false);
  CHECK(freed.empty());
  d.unpin(e, false);
  CHECK(freed == std::vector<Guid>{7});
  CHECK(d.bytes_held() == 0);
}

TEST_CASE("directory: a sweep frees unused copies only", "[runtime]") {
  std::vector<Guid> freed;
  GpuDirectory d([&](std::unique_ptr<CopyEntry> e) { freed.push_back(e->db); });
  CopyEntry& a = d.reserve(1, 10, 1);
  d.reserve(2, 20, 1);
  d.unpin(a, false);
  CHECK(d.sweep(false) == 0);
  CHECK(d.sweep(true) == 10);
  CHECK(freed == std::vector<Guid>{1});
  CHECK(d.valid() == 1);
}

TEST_CASE("two tasks on one block on one GPU: one miss and one fill, one hit", "[runtime]") {
  Rig r;
  const Guid x = r.rt->create_db(1000, DbType::Read, MergeOp::Copy, 0, true);
  r.rt->add_task(r.on(1, x));
  r.rt->add_task(r.on(1, x));
  std::vector<StreamOp> ops = r.launch_all();
  CHECK(Rig::count(ops, OpKind::H2D, Cause::Miss) == 1);
  CHECK(r.rt->stats().gpu[1].hits.value() == 1);
  CHECK(r.rt->stats().gpu[1].misses.value() == 1);
  Rig::run(ops);
  CHECK(r.rt->finished(0));
  CHECK(r.rt->finished(1));
  // cached: the reservation of the hit came back, the copy's stays held
  CHECK(r.rt->available(1) == (1u << 30) - r.rt->db(x).alloc());
}

TEST_CASE("a strict write on one GPU invalidates the other GPUs' copies", "[runtime]") {
  Rig r;
  const Guid x = r.rt->create_db(64, DbType::Write, MergeOp::Copy, 0, true);
  r.rt->add_task(r.on(0, x));
  std::vector<StreamOp> first = r.launch_all();
  Rig::run(first);
  CHECK(r.rt->directory(0).valid() == 1);
  r.rt->add_task(r.on(2, x));
  std::vector<StreamOp> second = r.launch_all();
  CHECK(Rig::count(second, OpKind::D2H, Cause::WriteBack) == 1);
  Rig::run(second);
  CHECK(r.rt->directory(0).valid() == 0); // invalidated by the writer on GPU 2
  CHECK(r.rt->directory(2).valid() == 1);
  r.rt->add_task(r.on(0, x));
  std::vector<StreamOp> third = r.launch_all();
  CHECK(Rig::count(third, OpKind::H2D, Cause::Miss) == 1); // a miss again
}

TEST_CASE("a reservation that does not fit fails and asks for a sweep of that GPU", "[runtime]") {
  Rig r(4096, 2);
  const Guid a = r.rt->create_db(1500, DbType::Lc, MergeOp::Add, 0, true); // 2 x 1564
  const Guid b = r.rt->create_db(1500, DbType::Lc, MergeOp::Add, 0, true);
  r.rt->add_task(r.on(0, a, Mode::Zero));
  std::vector<StreamOp> ops = r.launch_all();
  Rig::run(ops);
  r.rt->add_task(r.on(0, b, Mode::Zero));
  auto t = r.rt->next_gpu_task(0);
  REQUIRE(t);
  CHECK(r.rt->find_gpu(*t) == -1);
  CHECK(r.rt->take_gc_request() == 0);
  r.rt->sweep(0); // the unused LC copy of a: an eviction merge, then its memory
  std::vector<StreamOp> ev = r.rt->take_evictions();
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].kind == OpKind::D2H);
  CHECK(ev[0].cause == Cause::Evict);
  Rig::run(ev);
  CHECK(r.rt->find_gpu(*t) == 0);
}
