// Several streams per GPU and stream buffering in the runtime core (seed-004
// §4.8, pitfalls 11 and 13), without an executor: the stream a task's
// operations go on, the wait of a hit on a fill queued on another stream,
// and the buffer's regrouped issue order and flush rules.
#include "models/runtime/runtime.hpp"
#include "models/runtime/stream_buffer.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::rt;

namespace {

std::vector<StreamOp> launch_next(Runtime& rt) {
  const auto t = rt.next_gpu_task(0);
  REQUIRE(t);
  const int g = rt.find_gpu(*t);
  REQUIRE(g >= 0);
  return rt.launch(*t, uint32_t(g), 0);
}

TaskSpec on_gpu0(Guid db) {
  TaskSpec t;
  t.name = "t";
  t.gpu_to_run_on = 0;
  t.deps = {{db, Mode::Normal}};
  return t;
}

const StreamOp& first(const std::vector<StreamOp>& ops, OpKind k) {
  for (const StreamOp& op : ops)
    if (op.kind == k) return op;
  FAIL("no such operation");
  return ops.front();
}

uint64_t count(const StatGroup& g, const std::string& path) {
  const auto* c = dynamic_cast<const Counter*>(g.find(path));
  REQUIRE(c);
  return c->value();
}

std::string kinds(const std::vector<StreamOp>& ops) {
  std::string s;
  for (const StreamOp& op : ops)
    s += std::string(to_string(op.kind)) + (op.stream ? "'" : "") + " ";
  return s;
}

} // namespace

TEST_CASE("streams: tasks take a GPU's streams round robin, a hit waits for another stream's fill",
          "[runtime]") {
  StatGroup root;
  RuntimeSpec spec = defaults<RuntimeSpec>();
  spec.streams = 2;
  Runtime rt(spec, 2, 1 << 30, 1, 1, 1, root);
  const Guid x = rt.create_db(1000, DbType::Read, MergeOp::Copy, 0, true);
  rt.db(x).host.assign(1000, 7);
  for (int i = 0; i < 3; ++i)
    rt.add_task(on_gpu0(x));
  // one worker's deque: the last task added is popped first (LIFO)
  std::vector<StreamOp> a = launch_next(rt), b = launch_next(rt), c = launch_next(rt);
  for (const StreamOp& op : a)
    CHECK(op.stream == 0);
  for (const StreamOp& op : b)
    CHECK(op.stream == 1);
  for (const StreamOp& op : c)
    CHECK(op.stream == 0);
  const StreamOp& fill = first(a, OpKind::H2D);
  REQUIRE(fill.cause == Cause::Miss);
  CHECK(!first(a, OpKind::Kernel).ready); // its own fill is ahead of it on its stream
  CHECK(!first(c, OpKind::Kernel).ready); // same stream as the fill
  const StreamOp& kb = first(b, OpKind::Kernel);
  REQUIRE(kb.ready);
  CHECK(!kb.ready());
  fill.effect();
  CHECK(kb.ready());
}

TEST_CASE("streams: one stream per GPU sets no waits (the reference's single stream)",
          "[runtime]") {
  StatGroup root;
  Runtime rt(defaults<RuntimeSpec>(), 1, 1 << 30, 1, 1, 1, root);
  const Guid x = rt.create_db(1000, DbType::Read, MergeOp::Copy, 0, true);
  rt.add_task(on_gpu0(x));
  rt.add_task(on_gpu0(x));
  for (int i = 0; i < 2; ++i)
    for (const StreamOp& op : launch_next(rt))
      CHECK((op.stream == 0 && !op.ready && !op.join));
}

TEST_CASE("stream buffer: a flush issues all H2D and memsets, then kernels, then D2H, then "
          "callbacks, across tasks",
          "[runtime]") {
  StatGroup root;
  StreamBuffer buf(1, 128, 4096, root);
  auto task = [](uint32_t stream) {
    std::vector<StreamOp> ops(5);
    const OpKind k[] = {OpKind::H2D, OpKind::Memset, OpKind::Kernel, OpKind::D2H, OpKind::Callback};
    for (size_t i = 0; i < ops.size(); ++i) {
      ops[i].kind = k[i];
      ops[i].stream = stream;
    }
    return ops;
  };
  CHECK(!buf.add(0, task(0)));
  CHECK(!buf.add(0, task(1)));
  CHECK(buf.any());
  const std::vector<StreamOp> out = buf.flush(0, StreamBuffer::Flush::Sync);
  CHECK(kinds(out) == "h2d memset h2d' memset' kernel kernel' d2h d2h' callback callback' ");
  CHECK(buf.empty(0));
  CHECK(!buf.any());
  CHECK(count(root, "stream_buffer.gpu_0.flushes_sync") == 1);
  CHECK(buf.flush(0, StreamBuffer::Flush::Idle).empty()); // nothing: not counted
  CHECK(count(root, "stream_buffer.gpu_0.flushes_idle") == 0);
  CHECK(count(root, "stream_buffer.gpu_0.ops") == 10);
}

TEST_CASE("stream buffer: full at `entries` in one array, every `idle_checks`-th check flushes, "
          "peer copies are never buffered",
          "[runtime]") {
  StatGroup root;
  StreamBuffer buf(2, 3, 5, root);
  std::vector<StreamOp> two(2);
  two[0].kind = two[1].kind = OpKind::Kernel;
  CHECK(!buf.add(1, two));
  CHECK(buf.empty(0));
  CHECK(buf.add(1, two)); // four kernels >= 3
  int flushes = 0;
  for (int i = 0; i < 12; ++i)
    flushes += buf.check();
  CHECK(flushes == 2);
  std::vector<StreamOp> p2p(1);
  p2p[0].kind = OpKind::P2P;
  CHECK_THROWS(buf.add(0, p2p));
}
