// DAB reorder unit: round-robin release whatever the arrival order, epoch
// and count checks, the no-reorder negative control, and fp32 sums that are
// bit-identical only with reordering (seed-001 §3.5.2, §10.5 items 2, 6, 7).
#include "models/atomic_buffer/tests/dab_test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>

using namespace tlmgpu;
using namespace dabtest;

namespace {

using Released = std::vector<std::pair<uint32_t, uint32_t>>; // (sm, seq)

// A pre-flush message or a packet, as the interconnect delivers it.
struct Event {
  bool preflush = false;
  uint64_t epoch = 1; // of a pre-flush message (packets carry their own)
  uint32_t cluster = 0;
  std::vector<uint32_t> counts;
  FlushPacket packet;
};

// Every packet `counts[sm]` of each SM, one u32 add op each, plus one
// pre-flush message per cluster.
std::vector<Event> flush_events(uint64_t epoch, const std::vector<uint32_t>& counts,
                                uint32_t per_cluster) {
  std::vector<Event> ev;
  for (uint32_t c = 0; c * per_cluster < counts.size(); ++c)
    ev.push_back({true,
                  epoch,
                  c,
                  std::vector<uint32_t>(counts.begin() + c * per_cluster,
                                        counts.begin() + (c + 1) * per_cluster),
                  {}});
  for (uint32_t sm = 0; sm < counts.size(); ++sm)
    for (uint32_t seq = 0; seq < counts[sm]; ++seq) {
      Event e;
      e.packet.epoch = epoch;
      e.packet.sm = sm;
      e.packet.seq = seq;
      e.packet.ops.push_back({Addr(0x1000 * sm + 4 * seq), AtomicOp::Add, DataType::U32, 1, 0});
      ev.push_back(std::move(e));
    }
  return ev;
}

// Delivers the events in order, draining next() after each; returns the
// release order and applies every released packet to `mem` if given.
Released deliver(ReorderUnitCore& ru, const std::vector<Event>& ev, Mem* mem = nullptr) {
  Released out;
  for (const Event& e : ev) {
    if (e.preflush)
      ru.preflush(e.epoch, e.cluster, e.counts);
    else
      ru.arrive(e.packet);
    while (auto p = ru.next()) {
      out.emplace_back(p->sm, p->seq);
      if (mem) mem->apply(*p);
    }
  }
  return out;
}

// The round-robin order written independently: by (packet index, SM).
Released rr_oracle(const std::vector<uint32_t>& counts) {
  Released r;
  for (uint32_t sm = 0; sm < counts.size(); ++sm)
    for (uint32_t seq = 0; seq < counts[sm]; ++seq)
      r.emplace_back(sm, seq);
  std::sort(r.begin(), r.end(), [](auto& a, auto& b) {
    return std::pair{a.second, a.first} < std::pair{b.second, b.first};
  });
  return r;
}

} // namespace

TEST_CASE("reorder unit: round robin over SMs, exhausted SMs skipped, after every pre-flush",
          "[reorder_unit]") {
  StatGroup g;
  ReorderUnitCore ru(spec({}), 0, 4, 2, g);
  const std::vector<uint32_t> counts = {3, 0, 1, 2};
  auto ev = flush_events(1, counts, 2);
  std::reverse(ev.begin(), ev.end()); // packets first, last packet first, messages last
  Released got;
  for (size_t i = 0; i + 1 < ev.size(); ++i) // all but cluster 0's message
    got = deliver(ru, {ev[i]});
  CHECK(got.empty());
  CHECK(ru.waiting() == 6);
  CHECK_FALSE(ru.awaited());
  got = deliver(ru, {ev.back()}); // the last message releases the whole chain
  CHECK(got == Released{{0, 0}, {2, 0}, {3, 0}, {0, 1}, {3, 1}, {0, 2}});
  CHECK(ru.epoch_complete(1));
  CHECK(ru.idle());
  CHECK(counter(g, "out_of_order_arrivals") == 6);
  CHECK(counter(g, "epochs_completed") == 1);

  // Release waits for the packet whose turn it is, then pops the chain.
  StatGroup g2;
  ReorderUnitCore r2(spec({}), 0, 4, 2, g2);
  auto ev2 = flush_events(1, counts, 2);
  deliver(r2, {ev2[0], ev2[1]});
  CHECK(deliver(r2, {ev2[3]}).empty()); // SM 0 packet 1 parks
  CHECK(r2.awaited() == std::pair<uint32_t, uint32_t>{0, 0});
  CHECK(deliver(r2, {ev2[2]}) == Released{{0, 0}}); // SM 2's packet 0 not here yet
  CHECK(r2.awaited() == std::pair<uint32_t, uint32_t>{2, 0});
}

TEST_CASE("reorder unit: random arrival permutations release one identical sequence",
          "[reorder_unit]") {
  std::mt19937 rng(2020);
  for (int flush = 0; flush < 20; ++flush) {
    std::vector<uint32_t> counts(10);
    for (auto& c : counts)
      c = rng() % 3 == 0 ? 0 : rng() % 7; // many SMs with nothing to send
    counts[rng() % 10] = 0;
    const Released want = rr_oracle(counts);
    for (int perm = 0; perm < 50; ++perm) {
      auto ev = flush_events(1, counts, 2);
      std::shuffle(ev.begin(), ev.end(), rng); // messages may come after packets
      StatGroup g;
      ReorderUnitCore ru(spec({}), 0, 10, 2, g);
      REQUIRE(deliver(ru, ev) == want);
      REQUIRE(ru.epoch_complete(1));
      REQUIRE(ru.waiting() == 0);
    }
  }
  // Consecutive epochs through one unit, each shuffled on its own.
  StatGroup g;
  ReorderUnitCore ru(spec({}), 0, 6, 1, g);
  for (uint64_t epoch = 1; epoch <= 10; ++epoch) {
    std::vector<uint32_t> counts(6);
    for (auto& c : counts)
      c = rng() % 5;
    auto ev = flush_events(epoch, counts, 1);
    std::shuffle(ev.begin(), ev.end(), rng);
    REQUIRE(deliver(ru, ev) == rr_oracle(counts));
    REQUIRE(ru.epoch_complete(epoch));
  }
}

// dab.release_order = source_major: every packet of source 0, then of 1, ...
// whatever the arrival order, sources with nothing skipped, still one epoch
// at a time.
TEST_CASE("reorder unit: source-major release takes each source's packets in turn",
          "[reorder_unit]") {
  auto s = spec({});
  s.release_order = "source_major";
  s.derive();
  std::mt19937 rng(2026);
  for (int flush = 0; flush < 20; ++flush) {
    std::vector<uint32_t> counts(8);
    for (auto& c : counts)
      c = rng() % 3 == 0 ? 0 : rng() % 6;
    Released want; // (sm, seq) sorted by sm, then seq: written out directly
    for (uint32_t sm = 0; sm < counts.size(); ++sm)
      for (uint32_t seq = 0; seq < counts[sm]; ++seq)
        want.emplace_back(sm, seq);
    for (int perm = 0; perm < 30; ++perm) {
      auto ev = flush_events(1, counts, 2);
      std::shuffle(ev.begin(), ev.end(), rng);
      StatGroup g;
      ReorderUnitCore ru(s, 0, 8, 2, g);
      REQUIRE(deliver(ru, ev) == want);
      REQUIRE(ru.epoch_complete(1));
    }
  }
  // The paper's order on the same counts differs (the mode is not a no-op).
  StatGroup g1, g2;
  ReorderUnitCore rr(spec({}), 0, 2, 1, g1), sm(s, 0, 2, 1, g2);
  CHECK(deliver(rr, flush_events(1, {2, 2}, 1)) == Released{{0, 0}, {1, 0}, {0, 1}, {1, 1}});
  CHECK(deliver(sm, flush_events(1, {2, 2}, 1)) == Released{{0, 0}, {0, 1}, {1, 0}, {1, 1}});
  // Without reordering there is no release order to choose.
  auto bad = spec({.reorder = false});
  bad.release_order = "source_major";
  CHECK_THROWS_WITH(bad.derive(), Catch::Contains("dab.release_order = source_major needs "
                                                  "dab.reorder = true"));
}

TEST_CASE("reorder unit: overlapping, skipped and stale epochs are rejected", "[reorder_unit]") {
  const std::vector<uint32_t> one = {1};
  StatGroup g;
  ReorderUnitCore ru(spec({}), 0, 2, 1, g);
  ru.preflush(1, 0, one);
  CHECK_THROWS_AS(ru.preflush(2, 1, one), InvariantError); // epoch 1 still open
  FlushPacket p;
  p.epoch = 2;
  p.ops.push_back({0x10, AtomicOp::Add, DataType::U32, 1, 0});
  CHECK_THROWS_AS(ru.arrive(p), InvariantError);
  ru.preflush(1, 1, std::vector<uint32_t>{0});
  p.epoch = 1;
  ru.arrive(p);
  REQUIRE(ru.next());
  CHECK(ru.epoch_complete(1));
  CHECK_THROWS_AS(ru.arrive(p), InvariantError);           // epoch 1 is over
  CHECK_THROWS_AS(ru.preflush(3, 0, one), InvariantError); // skips epoch 2
  ru.preflush(2, 0, one);                                  // now fine

  // DAB-NR-OF lets epochs overlap.
  StatGroup g2;
  ReorderUnitCore of(spec({.reorder = false, .overlap = true}), 0, 2, 1, g2);
  of.preflush(1, 0, one);
  of.preflush(2, 0, one);
  p.epoch = 2;
  of.arrive(p);
  CHECK(of.next());
  CHECK_FALSE(of.epoch_complete(2)); // cluster 1's message still missing
}

TEST_CASE("reorder unit: packets beyond the announced count or repeated are rejected",
          "[reorder_unit]") {
  FlushPacket p;
  p.epoch = 1;
  p.sm = 1;
  p.ops.push_back({0x10, AtomicOp::Add, DataType::U32, 1, 0});
  for (bool reorder : {true, false}) {
    StatGroup g;
    ReorderUnitCore ru(spec({.reorder = reorder}), 0, 2, 2, g);
    ru.preflush(1, 0, std::vector<uint32_t>{3, 2});
    p.seq = 2;
    CHECK_THROWS_AS(ru.arrive(p), InvariantError); // SM 1 announced 2: seq 0 and 1
    p.seq = 1;
    ru.arrive(p);
    CHECK_THROWS_AS(ru.arrive(p), InvariantError); // repeated

    // A packet that overtakes its pre-flush message is checked when it lands.
    StatGroup g2;
    ReorderUnitCore early(spec({.reorder = reorder}), 0, 2, 2, g2);
    p.seq = 4;
    early.arrive(p);
    CHECK_THROWS_AS(early.preflush(1, 0, std::vector<uint32_t>{0, 4}), InvariantError);
  }
}

TEST_CASE("reorder unit: without reordering the order follows arrivals (negative control)",
          "[reorder_unit]") {
  std::mt19937 rng(7);
  const std::vector<uint32_t> counts = {4, 0, 3, 5, 1, 2};
  std::set<Released> seen;
  for (int perm = 0; perm < 20; ++perm) {
    auto ev = flush_events(1, counts, 2);
    std::shuffle(ev.begin(), ev.end(), rng);
    Released arrival;
    for (const auto& e : ev)
      if (!e.preflush) arrival.emplace_back(e.packet.sm, e.packet.seq);
    StatGroup g;
    ReorderUnitCore nr(spec({.reorder = false}), 0, 6, 2, g);
    const Released got = deliver(nr, ev);
    CHECK(got == arrival);
    CHECK(nr.epoch_complete(1));
    seen.insert(got);
  }
  CHECK(seen.size() > 1);
}

namespace {

// One fp32 flush: `sms` SMs (two per cluster) fill their buffers with adds
// of values from 1e-8 to 1e8, both signs, to 8 words in two sectors that
// map to sub-partitions 0 and 1; returns each partition's events.
std::vector<std::vector<Event>> float_flush(const SpecOpts& o, uint32_t sms, std::mt19937& rng) {
  auto part_of = [](Addr a) { return uint32_t(a / 32 % 2); };
  std::uniform_real_distribution<float> decade(-8.0f, 8.0f);
  std::vector<std::vector<Event>> ev(2);
  std::vector<std::vector<uint32_t>> counts(2, std::vector<uint32_t>(sms));
  for (uint32_t sm = 0; sm < sms; ++sm) {
    StatGroup g;
    AtomicBufferCore buf(spec(o), sm, g);
    const unsigned instructions = rng() % 3; // some SMs send nothing
    for (unsigned instr = 0; instr < instructions; ++instr) {
      std::vector<RedLane> ls;
      for (uint8_t lane = 0; lane < 32; ++lane) {
        const float v = std::pow(10.0f, decade(rng)) * (rng() % 2 ? 1.0f : -1.0f);
        ls.push_back({lane, Addr(0x100 + 4 * (rng() % 16)), f32(v)});
      }
      REQUIRE(buf.insert(AtomicOp::Add, DataType::F32, ls));
    }
    auto stream = buf.drain();
    const auto c = number_flush_stream(stream, 1, sm, 2, part_of);
    for (uint32_t part = 0; part < 2; ++part)
      counts[part][sm] = c[part];
    for (auto& p : stream)
      ev[p.partition].push_back({false, 1, 0, {}, std::move(p)});
  }
  for (uint32_t part = 0; part < 2; ++part)
    for (uint32_t c = 0; c < sms / 2; ++c)
      ev[part].push_back({true, 1, c, {counts[part][2 * c], counts[part][2 * c + 1]}, {}});
  return ev;
}

// Memory after the flush, the partitions' events shuffled by `rng`.
Mem run_flush(const SpecOpts& o, std::vector<std::vector<Event>> ev, std::mt19937& rng) {
  Mem mem;
  for (uint32_t part = 0; part < 2; ++part) {
    std::shuffle(ev[part].begin(), ev[part].end(), rng);
    StatGroup g;
    ReorderUnitCore ru(spec(o), part, 8, 2, g);
    deliver(ru, ev[part], &mem);
    REQUIRE(ru.epoch_complete(1));
  }
  return mem;
}

} // namespace

TEST_CASE("reorder unit: fp32 sums are bit-identical across arrival orders only when reordered",
          "[reorder_unit]") {
  for (const SpecOpts& o :
       {SpecOpts{.fusion = false}, SpecOpts{.fusion = true, .coalescing = true, .offset = true}}) {
    std::mt19937 rng(1);
    const auto ev = float_flush(o, 8, rng);
    SpecOpts nr = o;
    nr.reorder = false;
    std::mt19937 order(99);
    const Mem first = run_flush(o, ev, order), first_nr = run_flush(nr, ev, order);
    REQUIRE(!first.words.empty());
    bool nr_differs = false;
    for (int perm = 0; perm < 30; ++perm) {
      REQUIRE(run_flush(o, ev, order) == first); // bitwise: Mem compares raw words
      nr_differs |= !(run_flush(nr, ev, order) == first_nr);
    }
    CHECK(nr_differs);
  }
}
