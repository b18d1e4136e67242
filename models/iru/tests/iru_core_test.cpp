// The IRU's reordering hash, merge ALU, replier rules, ring routing and
// prefetch layout on hand-made inputs (seed-003 §3.3-3.5, invariants §8.7.3).
#include "models/iru/iru_core.hpp"
#include "models/iru/iru_layout.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <random>
#include <set>

using namespace tlmgpu;

namespace {

uint32_t f32(float x) {
  return std::bit_cast<uint32_t>(x);
}
float as_f32(uint32_t b) {
  return std::bit_cast<float>(b);
}

IruCore make(uint32_t partitions, uint32_t sets, IruMerge m, uint64_t n, uint32_t slots = 32) {
  IruCore c({partitions, sets, slots, 2, 128});
  IruConfig cfg;
  cfg.indices = 0x1000, cfg.n = n;
  c.configure(cfg, m);
  return c;
}

// Every element arrives at its owning partition at cycle `at`.
void arrive_all(IruCore& c, const std::vector<IruElement>& in, Cycle at = 0) {
  for (const IruElement& e : in)
    c.arrive(c.routing().place(e.index).partition, e, at);
}

// Requests of 32 lanes from cycle t0 on, round robin over the partitions,
// each answered without events (reply_by), until every lane comes back
// inactive.
std::vector<IruCore::Reply> serve_all(IruCore& c, uint32_t partitions, Cycle t0 = 0) {
  std::vector<IruCore::Reply> out;
  for (uint32_t k = 0;; ++k) {
    auto r = c.reply_by(k % partitions, 32, t0 + 10 * k, 512);
    REQUIRE(r);
    if (r->r.kind == IruCore::Kind::Inactive) return out;
    out.push_back(std::move(r->r));
    REQUIRE(out.size() < 100000);
  }
}

std::vector<IruElement> elements(const std::vector<uint32_t>& idx) {
  std::vector<IruElement> e;
  for (uint32_t i = 0; i < idx.size(); ++i)
    e.push_back({idx[i], i * 10, i});
  return e;
}

} // namespace

TEST_CASE("iru merge ALU: min_u32 keeps the smaller secondary and its position", "[iru]") {
  IruHashSlice h(4, 32);
  REQUIRE(h.insert(1, 7, {5, 40, 0}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  REQUIRE(h.insert(1, 7, {5, 30, 1}, IruMerge::MinU32) == IruHashSlice::Insert::Merged);
  REQUIRE(h.insert(1, 7, {5, 50, 2}, IruMerge::MinU32) == IruHashSlice::Insert::Merged);
  REQUIRE(h.insert(1, 7, {6, 99, 3}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  std::vector<IruElement> out;
  REQUIRE(h.take(1, 32, out) == 2);
  REQUIRE(out[0] == IruElement{5, 30, 1});
  REQUIRE(out[1] == IruElement{6, 99, 3});
}

TEST_CASE("iru merge ALU: add_f32 sums the secondaries of equal indices", "[iru]") {
  IruHashSlice h(4, 32);
  h.insert(0, 1, {9, f32(0.5f), 0}, IruMerge::AddF32);
  REQUIRE(h.insert(0, 1, {9, f32(0.25f), 1}, IruMerge::AddF32) == IruHashSlice::Insert::Merged);
  // A full set still merges: the ALU compares against what the set holds.
  IruHashSlice small(1, 1);
  small.insert(0, 1, {3, f32(1.f), 0}, IruMerge::AddF32);
  REQUIRE(small.insert(0, 1, {4, f32(1.f), 1}, IruMerge::AddF32) == IruHashSlice::Insert::Full);
  REQUIRE(small.insert(0, 1, {3, f32(2.f), 2}, IruMerge::AddF32) == IruHashSlice::Insert::Merged);
  std::vector<IruElement> out;
  h.take(0, 32, out), small.take(0, 1, out);
  REQUIRE(as_f32(out[0].secondary) == 0.75f);
  REQUIRE(as_f32(out[1].secondary) == 3.f);
  // No merge op: equal indices are both kept.
  IruHashSlice none(1, 32);
  none.insert(0, 1, {3, 0, 0}, IruMerge::None);
  REQUIRE(none.insert(0, 1, {3, 0, 1}, IruMerge::None) == IruHashSlice::Insert::Added);
}

TEST_CASE("iru residue: a set drops the IDs it replied while remembering (notes P20)", "[iru]") {
  IruHashSlice h(2, 32, 2); // two IDs remembered per set
  h.remember(true);
  REQUIRE(h.insert(0, 1, {5, 0, 0}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  REQUIRE(h.insert(0, 1, {6, 0, 1}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  std::vector<IruElement> out;
  REQUIRE(h.take(0, 32, out) == 2);
  h.clear(); // a new operation: the residue stays
  REQUIRE(h.insert(0, 1, {5, 0, 2}, IruMerge::MinU32) == IruHashSlice::Insert::Remembered);
  REQUIRE(h.insert(1, 1, {5, 0, 3}, IruMerge::MinU32) == IruHashSlice::Insert::Added); // per set
  REQUIRE(h.insert(0, 1, {7, 0, 4}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  REQUIRE(h.take(0, 32, out) == 1); // 7 replaces the oldest, 5
  REQUIRE(h.insert(0, 1, {5, 0, 5}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  REQUIRE(h.insert(0, 1, {6, 0, 6}, IruMerge::MinU32) == IruHashSlice::Insert::Remembered);
  h.remember(false); // forgotten
  REQUIRE(h.insert(0, 1, {7, 0, 7}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  IruHashSlice off(1, 32); // no residue: remembering does nothing
  off.remember(true);
  REQUIRE(off.insert(0, 1, {5, 0, 0}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
  REQUIRE(off.take(0, 32, out) == 1);
  REQUIRE(off.insert(0, 1, {5, 0, 1}, IruMerge::MinU32) == IruHashSlice::Insert::Added);
}

TEST_CASE("iru filters duplicates: min_u32 without a secondary array", "[iru]") {
  std::mt19937 rng(3);
  std::vector<uint32_t> idx(3000);
  for (auto& x : idx)
    x = rng() % 200; // many duplicates, arriving close together
  IruCore c = make(2, 8192, IruMerge::MinU32, idx.size());
  std::vector<IruElement> in;
  for (uint32_t i = 0; i < idx.size(); ++i)
    in.push_back({idx[i], 0, i});
  arrive_all(c, in);
  std::map<uint32_t, int> seen;
  uint64_t merged = 0;
  for (const auto& r : serve_all(c, 2, 1000000)) // asked once everything is in
    for (const IruElement& e : r.elements)
      ++seen[e.index];
  for (uint32_t p = 0; p < 2; ++p)
    merged += c.counts(p).merged;
  // No false positive: every index comes out; the duplicates held together
  // in the hash were dropped (here all of them: nothing was replied before
  // everything had arrived, and no two blocks share a set).
  REQUIRE(seen.size() == std::set<uint32_t>(idx.begin(), idx.end()).size());
  for (auto& [i, k] : seen)
    REQUIRE(k == 1);
  REQUIRE(merged == idx.size() - seen.size());
  REQUIRE(c.remaining() == 0);
}

TEST_CASE("iru grouping puts indices of one memory block in one reply", "[iru]") {
  // 1024 indices of 4-byte elements: 32 blocks of 128 B, in random order.
  std::vector<uint32_t> idx(1024);
  for (uint32_t i = 0; i < idx.size(); ++i)
    idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), std::mt19937(7));
  auto blocks_of = [](const std::vector<uint32_t>& w) {
    std::set<uint32_t> b;
    for (uint32_t x : w)
      b.insert(x / 32);
    return b.size();
  };
  double before = 0;
  for (size_t w = 0; w < idx.size(); w += 32)
    before += blocks_of({idx.begin() + w, idx.begin() + w + 32});
  IruCore c = make(4, 4096, IruMerge::None, idx.size());
  arrive_all(c, elements(idx));
  const auto replies = serve_all(c, 4);
  REQUIRE(replies.size() == 32);
  for (const auto& r : replies) { // full sets, or at the drain whole sets of other partitions
    REQUIRE(r.elements.size() == 32);
    REQUIRE(r.blocks == 1);
  }
  REQUIRE(before / 32 > 15); // the original order: a warp touches ~20 blocks
}

TEST_CASE("iru hands every element out exactly once, then only inactive lanes", "[iru]") {
  std::mt19937 rng(11);
  for (uint32_t partitions : {1u, 2u, 4u}) {
    std::vector<uint32_t> idx(5000 + partitions);
    for (auto& x : idx)
      x = rng() % 20000;
    IruCore c = make(partitions, 256, IruMerge::None, idx.size());
    // Arrivals spread over time, as prefetched lines come back.
    std::vector<IruElement> in = elements(idx);
    for (size_t i = 0; i < in.size(); ++i)
      c.arrive(c.routing().place(in[i].index).partition, in[i], i / 4);
    std::multiset<uint32_t> got;
    std::set<uint32_t> positions;
    size_t short_replies = 0;
    for (const auto& r : serve_all(c, partitions)) {
      short_replies += r.elements.size() < 32;
      for (const IruElement& e : r.elements) {
        got.insert(e.index);
        REQUIRE(positions.insert(e.position).second);
        REQUIRE(e.index == idx[e.position]); // pairs stay intact
        REQUIRE(e.secondary == e.position * 10);
      }
    }
    REQUIRE(got == std::multiset<uint32_t>(idx.begin(), idx.end()));
    REQUIRE(short_replies <= 1); // only the last one
    auto extra = c.reply_by(0, 32, 1u << 30, 512);
    REQUIRE((extra && extra->r.kind == IruCore::Kind::Inactive && extra->r.elements.empty()));
  }
}

TEST_CASE("iru merges preserve per-index minima and sums", "[iru]") {
  std::mt19937 rng(5);
  for (IruMerge m : {IruMerge::MinU32, IruMerge::AddF32}) {
    std::vector<IruElement> in;
    std::map<uint32_t, uint32_t> min_of;
    std::map<uint32_t, double> sum_of;
    for (uint32_t i = 0; i < 4000; ++i) {
      const uint32_t x = rng() % 300, w = 1 + rng() % 64;
      in.push_back({x, m == IruMerge::MinU32 ? w : f32(float(w)), i});
      min_of[x] = std::min(min_of.count(x) ? min_of[x] : ~0u, w);
      sum_of[x] += w;
    }
    IruCore c = make(4, 128, m, in.size());
    for (size_t i = 0; i < in.size(); ++i) // in waves: some twins are replied apart
      c.arrive(c.routing().place(in[i].index).partition, in[i], i * 3);
    std::map<uint32_t, uint32_t> got_min;
    std::map<uint32_t, double> got_sum;
    for (const auto& r : serve_all(c, 4))
      for (const IruElement& e : r.elements) {
        got_min[e.index] = std::min(got_min.count(e.index) ? got_min[e.index] : ~0u, e.secondary);
        got_sum[e.index] += as_f32(e.secondary);
        if (m == IruMerge::MinU32) REQUIRE(in[e.position].secondary == e.secondary);
      }
    if (m == IruMerge::MinU32) REQUIRE(got_min == min_of);
    if (m == IruMerge::AddF32)
      for (auto& [x, s] : sum_of)
        REQUIRE(got_sum[x] == Approx(s));
  }
}

TEST_CASE("iru ring routing: set owners, banks and hop counts", "[iru]") {
  IruRouting r(4, 256, 2, 128);
  r.set_target(0x10000000, 8);
  REQUIRE(r.block_of(0) == 0x10000000 / 128);
  REQUIRE(r.block_of(16) == r.block_of(0) + 1); // 16 eight-byte elements a line
  std::vector<int> owned(4, 0);
  for (uint32_t i = 0; i < 64000; i += 16) {
    const auto p = r.place(i);
    REQUIRE(p.set < 256);
    REQUIRE(p.bank == p.set % 2);
    REQUIRE(r.place(i + 15).partition == p.partition); // same block, same set
    REQUIRE(r.place(i + 15).set == p.set);
    ++owned[p.partition];
  }
  for (int k : owned)
    REQUIRE(k > 800); // 4000 blocks spread over 4 partitions
  // Unidirectional: i sends to i + 1.
  REQUIRE(r.hops(0, 1) == 1);
  REQUIRE(r.hops(3, 0) == 1);
  REQUIRE(r.hops(1, 0) == 3);
  REQUIRE(r.hops(2, 2) == 0);
}

TEST_CASE("iru timeout answers with the best partial sets and the drain takes the rest", "[iru]") {
  IruCore c = make(1, 64, IruMerge::None, 100);
  // 40 elements of 40 different blocks (no set fills), 60 more not here yet.
  std::vector<IruElement> in;
  for (uint32_t i = 0; i < 40; ++i)
    in.push_back({i * 32, 0, i});
  arrive_all(c, in);
  c.advance(100);
  REQUIRE(c.held() == 40);
  REQUIRE(!c.reply(0, 32, false, 100)); // nothing ready: wait
  auto r = c.reply(0, 32, true, 612);   // timed out: a full reply of partial sets
  REQUIRE((r && r->kind == IruCore::Kind::Timeout && r->elements.size() == 32));
  REQUIRE(!c.reply(0, 32, true, 700)); // 8 held but 68 remain: never a short reply early
  for (uint32_t i = 40; i < 100; ++i)
    c.arrive(0, {1000 * 32 + i, 0, i}, 800); // now the rest, in three blocks
  c.advance(2000);
  REQUIRE(c.drained());
  uint64_t total = 32;
  for (int k = 0; k < 3; ++k) {
    auto d = c.reply(0, 32, false, 2000);
    REQUIRE(d);
    total += d->elements.size();
  }
  REQUIRE(total == 100);
  REQUIRE(c.reply(0, 32, false, 2000)->kind == IruCore::Kind::Inactive);
}

TEST_CASE("iru insertion: one per bank per cycle and a full set stalls the queue", "[iru]") {
  IruCore c = make(1, 8, IruMerge::None, 6, 4); // 4 slots a set
  for (uint32_t i = 0; i < 6; ++i)
    c.arrive(0, {i, 0, i}, 10); // one block: one set
  c.advance(10);
  REQUIRE(c.held() == 1); // one bank for this set: one insertion in cycle 10
  c.advance(20);
  REQUIRE(c.held() == 4);
  REQUIRE(c.next_insert() == kIruNever); // stalled on the full set
  auto r = c.reply(0, 4, false, 30);
  REQUIRE((r && r->kind == IruCore::Kind::Full && r->elements.size() == 4 && r->blocks == 1));
  REQUIRE(c.next_insert() == 30); // goes on from the reply
  c.advance(31);
  REQUIRE(c.held() == 2);
}

TEST_CASE("iru requests take sets of other partitions over the ring", "[iru]") {
  IruCore c = make(4, 64, IruMerge::None, 64);
  std::vector<IruElement> in;
  for (uint32_t i = 0; i < 64; ++i)
    in.push_back({i * 97, 0, i}); // scattered: no set fills
  arrive_all(c, in);
  c.advance(1000);
  REQUIRE(c.drained());
  auto r = c.reply(1, 32, false, 1000);
  REQUIRE((r && r->kind == IruCore::Kind::Drain && r->elements.size() == 32));
  REQUIRE(r->max_hops > 0);
  REQUIRE(c.counts(1).stolen > 0);
  // A full set of a partition with no request waiting answers at once.
  IruCore f = make(2, 64, IruMerge::None, 100);
  for (uint32_t i = 0; i < 32; ++i) // block 0: one set fills; 68 elements still to come
    f.arrive(f.routing().place(i).partition, {i, 0, i}, 0);
  f.advance(1000);
  const uint32_t p0 = f.routing().place(0).partition, other = 1 - p0;
  REQUIRE(!f.reply(other, 32, false, 1000, ~(1ull << p0))); // p0 has a request: wait
  auto s = f.reply(other, 32, false, 1000);                 // p0 idle: its full set
  REQUIRE((s && s->kind == IruCore::Kind::Full && s->max_hops == 1 && s->stolen == 32));
}

TEST_CASE("iru layout: a partition prefetches only its own lines and halves pair up", "[iru]") {
  // Two partitions of one slice each; lines alternate between them.
  IruLayout lay(1, 128, [](Addr a) { return uint32_t(a / 128 % 2); });
  IruConfig c;
  c.indices = 0x1000 + 64, c.secondary = 0x8000, c.n = 100; // indices not line aligned
  auto l0 = lay.lines(c, 0), l1 = lay.lines(c, 1);
  uint32_t covered_idx = 0, covered_sec = 0;
  for (const auto* v : {&l0, &l1})
    for (const auto& l : *v) {
      REQUIRE(lay.partition_of(l.addr) == (v == &l0 ? 0u : 1u));
      (l.secondary ? covered_sec : covered_idx) += l.last - l.first;
    }
  REQUIRE(covered_idx == 100);
  REQUIRE(covered_sec == 100);
  REQUIRE((l0.front().first == 0 && !l0.front().secondary && l0.front().last == 16));
  REQUIRE(lay.owner(c, 0) == 0);
  REQUIRE(lay.owner(c, 16) == 1);
  IruPairing pair;
  REQUIRE(!pair.secondary(5, 77, 30));
  auto w = pair.index(5, 123, 20);
  REQUIRE((w && w->e == IruElement{123, 77, 5} && w->at == 30));
  REQUIRE(pair.waiting() == 0);
}

TEST_CASE("iru layout: a gather configuration reads each word once, by runs", "[iru]") {
  // The ISCU's element addresses: two CSR runs (the second crosses a line
  // boundary and repeats the first's last word), then a lone word.
  IruLayout lay(1, 128, [](Addr a) { return uint32_t(a / 128 % 2); });
  IruConfig c;
  for (Addr a = 0x1000 + 120; a < 0x1000 + 128; a += 4) // 2 words, line 0x1000
    c.gather.push_back(a);
  for (Addr a = 0x1000 + 124; a < 0x1000 + 136; a += 4) // 3 words: lines 0x1000, 0x1080
    c.gather.push_back(a);
  c.gather.push_back(0x3000);
  c.n = c.gather.size();
  REQUIRE(c.problem().empty());
  std::vector<uint32_t> seen(c.n, 0);
  for (uint32_t p = 0; p < 2; ++p)
    for (const auto& l : lay.lines(c, p)) {
      REQUIRE(lay.partition_of(l.addr) == p);
      REQUIRE(l.word0 == c.gather[l.first]);
      for (uint32_t pos = l.first; pos < l.last; ++pos) {
        ++seen[pos];
        REQUIRE(c.gather[pos] / 128 * 128 == l.addr); // within the line read
      }
    }
  REQUIRE(seen == std::vector<uint32_t>(c.n, 1));
  REQUIRE(lay.lines(c, 0).size() == 3); // 0x1000 twice (two runs), 0x3000
  REQUIRE(lay.lines(c, 1).size() == 1); // 0x1080
  c.secondary = 0x8000;
  REQUIRE(c.problem().find("gather") != std::string::npos);
  c.secondary = 0, c.n = 2;
  REQUIRE(c.problem().find("gather") != std::string::npos);
  c.n = c.gather.size();
  REQUIRE(c.problem().empty());
  c.gather_secondary = {1, 2}; // the ISCU's costs: one per gathered word
  REQUIRE(c.problem().find("gather_secondary") != std::string::npos);
  c.gather_secondary.assign(c.n, 7);
  REQUIRE(c.problem().empty());
  c.gather.clear(), c.indices = 0x1000;
  REQUIRE(c.problem().find("only with gather") != std::string::npos);
}

TEST_CASE("iru configurations are checked", "[iru]") {
  IruConfig c;
  c.n = 4;
  REQUIRE(c.problem().find("indices") != std::string::npos);
  c.indices = 0x1002;
  REQUIRE(c.problem().find("aligned") != std::string::npos);
  c.indices = 0x1000, c.elem_bytes = 0;
  REQUIRE(c.problem().find("elem_bytes") != std::string::npos);
  c.elem_bytes = 4;
  REQUIRE(c.problem().empty());
  REQUIRE(iru_merge_of("add_f32") == IruMerge::AddF32);
  REQUIRE_THROWS(iru_merge_of("max"));
  REQUIRE_THROWS(IruCore({3, 1024, 32, 2, 128})); // 1024 sets do not split over 3
  IruCore core = make(1, 8, IruMerge::None, 1);
  REQUIRE_THROWS(core.arrive(0, {kIruInactive, 0, 0}, 0));
}
