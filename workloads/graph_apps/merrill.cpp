#include "workloads/graph_apps/merrill.hpp"

#include "workloads/graph_apps/cta_scan.hpp"
#include "workloads/graph_apps/sssp_scu.hpp"

namespace tlmgpu::graph_apps {
namespace {

constexpr uint32_t kNone = 0xffffffffu; // no thread claimed the CTA / warp

// The expansion's shared memory after the scan's: the CTA's "who gathers"
// words (two owner slots used in turn, then the owner's list: start, end,
// output offset, carry), each warp's five words (owner, then the same
// four), the fine-grained gather buffers (one arc index per thread, and for
// SSSP the arc's tail distance).
struct ExpandShared {
  CtaScanLayout scan;
  Addr cta = 0, warp = 0, gather = 0, carry = 0;
  explicit ExpandShared(CtaScanLayout s) : scan(s) {
    cta = s.bytes();
    warp = cta + 32;
    gather = warp + 32 * Addr(s.warps);
    carry = gather + 4 * Addr(s.warps) * s.width;
  }
  uint32_t bytes() const { return uint32_t(carry + 4 * Addr(scan.warps) * scan.width); }
};

Lanes<Addr> word(Addr base, uint32_t i) {
  return Lanes<Addr>(base + 4 * Addr(i));
}

// A u32 every lane reads from shared memory (a broadcast, one pass).
WarpOp<Lanes<uint32_t>> broadcast(Warp& w, Addr base, uint32_t i) {
  return w.shared_load<uint32_t>(word(base, i), Mask::lane(w.active().first()));
}

// Lanes in m copy arc e's head into edge-frontier slot `slot`: the gather
// every strategy ends in (a col_indices load, an edge-frontier store); SSSP
// also writes the path cost carry + weight (carry = the tail's distance),
// PageRank the carry itself (the tail's share, as float bits).
WarpTask copy_arcs(Warp& w, const MerrillLevel& a, const Lanes<uint32_t>& e,
                   const Lanes<uint32_t>& slot, const Lanes<uint32_t>& carry, Mask m) {
  const Lanes<uint32_t> dst =
      co_await w.load<uint32_t>(address_of<uint32_t>(a.g.col_indices, e), m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.edges, slot), dst, m);
  if (!a.costs) co_return;
  if (a.rank) {
    co_await w.store<uint32_t>(address_of<uint32_t>(a.costs, slot), carry, m);
    co_return;
  }
  Lanes<uint32_t> weight(1u);
  if (a.g.weights) weight = co_await w.load<uint32_t>(address_of<uint32_t>(a.g.weights, e), m);
  co_await w.compute(2);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.costs, slot), path_cost(carry, weight), m);
}

// A list [lo, hi) whose first arc goes to slot `out`, strip-mined over a
// group of `stride` threads (t = a thread's index in the group): one
// coalesced col_indices load and store per step and warp.
WarpTask strip(Warp& w, const MerrillLevel& a, uint32_t lo, uint32_t hi, uint32_t out,
               uint32_t carry, Lanes<uint32_t> t, uint32_t stride) {
  for (uint32_t k = 0; lo + k < hi; k += stride) {
    const Lanes<uint32_t> e = Lanes<uint32_t>(lo + k) + t;
    const Mask m = w.active() & (e < Lanes<uint32_t>(hi));
    co_await w.compute(3); // e += stride, e < hi, branch
    if (m.empty()) break;  // this warp's threads are past the list's end
    co_await copy_arcs(w, a, e, e + Lanes<uint32_t>(out - lo), Lanes<uint32_t>(carry), m);
  }
}

// CTA-based gathering: while a thread holds a list of at least a CTA's
// threads, the threads holding one write their id to the round's owner
// slot (the last write wins), the winner publishes its list, and the whole
// CTA copies it. Two owner slots alternate so that resetting the next
// round's slot needs no extra barrier: it was last read before this
// round's first barrier.
WarpTask cta_gather(Warp& w, const MerrillLevel& a, const ExpandShared& s, Mask big,
                    const Lanes<uint32_t>& lo, const Lanes<uint32_t>& hi,
                    const Lanes<uint32_t>& out, const Lanes<uint32_t>& carry) {
  const uint32_t threads = uint32_t(w.block_dim().count()); // the last warp may be partial
  const Mask first = Mask::lane(w.active().first());
  for (uint32_t round = 0;; ++round) {
    const uint32_t p = round & 1;
    if (big.any()) co_await w.shared_store<uint32_t>(word(s.cta, p), w.thread_idx(), big);
    if (w.warp_in_cta() == 0 && round > 0)
      co_await w.shared_store<uint32_t>(word(s.cta, 1 - p), Lanes<uint32_t>(kNone), first);
    co_await w.barrier();
    const uint32_t owner = (co_await broadcast(w, s.cta, p))[first.first()];
    co_await w.compute(2);
    if (owner == kNone) co_return; // the same value in every warp: all leave
    const Mask mine = w.active() & (w.thread_idx() == Lanes<uint32_t>(owner));
    if (mine.any()) {
      co_await w.shared_store<uint32_t>(word(s.cta, 2), lo, mine);
      co_await w.shared_store<uint32_t>(word(s.cta, 3), hi, mine);
      co_await w.shared_store<uint32_t>(word(s.cta, 4), out, mine);
      if (a.costs) co_await w.shared_store<uint32_t>(word(s.cta, 5), carry, mine);
      big &= ~mine;
    }
    co_await w.barrier();
    const uint32_t l = (co_await broadcast(w, s.cta, 2))[first.first()];
    const uint32_t h = (co_await broadcast(w, s.cta, 3))[first.first()];
    const uint32_t o = (co_await broadcast(w, s.cta, 4))[first.first()];
    const uint32_t c = a.costs ? (co_await broadcast(w, s.cta, 5))[first.first()] : 0;
    co_await strip(w, a, l, h, o, c, w.thread_idx(), threads);
  }
}

// Warp-based gathering: the same contest inside one warp, warp-
// synchronous (no barrier: the lanes run in lock-step).
WarpTask warp_gather(Warp& w, const MerrillLevel& a, const ExpandShared& s, Mask big,
                     const Lanes<uint32_t>& lo, const Lanes<uint32_t>& hi,
                     const Lanes<uint32_t>& out, const Lanes<uint32_t>& carry) {
  const Addr mine_at = s.warp + 32 * Addr(w.warp_in_cta());
  const Mask first = Mask::lane(w.active().first());
  for (;;) {
    co_await w.shared_store<uint32_t>(word(mine_at, 0), Lanes<uint32_t>(kNone), first);
    if (big.any()) co_await w.shared_store<uint32_t>(word(mine_at, 0), lane_index(), big);
    const uint32_t owner = (co_await broadcast(w, mine_at, 0))[first.first()];
    co_await w.compute(2);
    if (owner == kNone) co_return;
    const Mask mine = Mask::lane(owner);
    co_await w.shared_store<uint32_t>(word(mine_at, 1), lo, mine);
    co_await w.shared_store<uint32_t>(word(mine_at, 2), hi, mine);
    co_await w.shared_store<uint32_t>(word(mine_at, 3), out, mine);
    if (a.costs) co_await w.shared_store<uint32_t>(word(mine_at, 4), carry, mine);
    big &= ~mine;
    const uint32_t l = (co_await broadcast(w, mine_at, 1))[first.first()];
    const uint32_t h = (co_await broadcast(w, mine_at, 2))[first.first()];
    const uint32_t o = (co_await broadcast(w, mine_at, 3))[first.first()];
    const uint32_t c = a.costs ? (co_await broadcast(w, mine_at, 4))[first.first()] : 0;
    // The CTA's last warp may be partial: its lanes stride by their count.
    co_await strip(w, a, l, h, o, c, lane_index(), w.active().count());
  }
}

// Scan-based fine-grained gathering of the short lists: the CTA's
// remaining arcs are ranked 0..total-1 (rank = the thread's exclusive fine
// prefix + k); window by window of a CTA's threads, each thread writes the
// CSR index of its arcs ranked in the window into the shared buffer, and
// after a barrier thread t copies buffer entry t to slot out + rank.
WarpTask fine_gather(Warp& w, const MerrillLevel& a, const ExpandShared& s, Mask fine,
                     const Lanes<uint32_t>& lo, const Lanes<uint32_t>& deg,
                     const Lanes<uint32_t>& carry, const Lanes<uint32_t>& rank, uint32_t total,
                     uint32_t out) {
  const uint32_t threads = uint32_t(w.block_dim().count());
  Lanes<uint32_t> next = rank;
  const Lanes<uint32_t> end = rank + deg;
  for (uint32_t progress = 0; progress < total; progress += threads) {
    for (;;) {
      const Mask put = fine & (next < end) & (next < Lanes<uint32_t>(progress + threads));
      co_await w.compute(3); // the two tests and the branch
      if (put.empty()) break;
      const Lanes<uint32_t> at = next - Lanes<uint32_t>(progress);
      co_await w.shared_store<uint32_t>(address_of<uint32_t>(s.gather, at), lo + (next - rank),
                                        put);
      if (a.costs) co_await w.shared_store<uint32_t>(address_of<uint32_t>(s.carry, at), carry, put);
      next = select(put, next + Lanes<uint32_t>(1u), next);
    }
    co_await w.barrier();
    const Lanes<uint32_t> t = w.thread_idx();
    const Mask m = w.active() & (t < Lanes<uint32_t>(total - progress));
    if (m.any()) {
      const Lanes<uint32_t> e =
          co_await w.shared_load<uint32_t>(address_of<uint32_t>(s.gather, t), m);
      Lanes<uint32_t> c(0u);
      if (a.costs) c = co_await w.shared_load<uint32_t>(address_of<uint32_t>(s.carry, t), m);
      co_await copy_arcs(w, a, e, t + Lanes<uint32_t>(out + progress), c, m);
    }
    co_await w.barrier(); // the buffer is rewritten by the next window
  }
}

} // namespace

uint32_t merrill_shared_bytes(uint32_t block, uint32_t warp_size) {
  return ExpandShared(CtaScanLayout::of(block, warp_size)).bytes();
}

WarpTask merrill_expand(Warp& w, MerrillLevel a) {
  const ExpandShared s(CtaScanLayout::of(w));
  const uint32_t width = w.lane_count(), threads = uint32_t(w.block_dim().count());
  co_await cta_scan_init(w, s.scan);
  if (w.warp_in_cta() == 0) // both owner slots start empty
    co_await w.shared_store<uint32_t>(address_of<uint32_t>(s.cta, lane_index()),
                                      Lanes<uint32_t>(kNone), Mask::all(2));
  const Mask m = first_threads(w, a.n);
  Lanes<uint32_t> lo(0u), hi(0u), carry(0u);
  if (m.any()) {
    const Lanes<uint32_t> v =
        co_await w.load<uint32_t>(address_of<uint32_t>(a.in, w.global_thread_id()), m);
    if (a.costs && !a.rank) { // SSSP (as sssp_expand): the tail's distance; lookup[v] reset
      carry = co_await w.load<uint32_t>(address_of<uint32_t>(a.dist, v), m);
      co_await w.store<uint32_t>(address_of<uint32_t>(a.lookup, v), Lanes<uint32_t>(kInf), m);
    }
    lo = co_await w.load<uint32_t>(address_of<uint32_t>(a.g.row_offsets, v), m);
    hi = co_await w.load<uint32_t>(address_of<uint32_t>(a.g.row_offsets, v + Lanes<uint32_t>(1u)),
                                   m);
    if (a.rank) { // PageRank (as pr_expand): the share, the same float division
      const Lanes<float> r = co_await w.load<float>(address_of<float>(a.rank, v), m);
      co_await w.compute(2);
      carry = (r / (hi - lo).as<float>()).map([](float x) { return uint32_t(to_bits(x)); });
    }
  }
  const Lanes<uint32_t> deg = select(m, hi - lo, Lanes<uint32_t>(0u));
  // Lists of a warp's width or more are gathered cooperatively and take
  // the first part of the CTA's output; short lists the second. Both counts
  // are scanned at once, packed in a u64 (coarse << 32 | fine).
  const Mask coarse = m & (deg >= Lanes<uint32_t>(width));
  const Mask fine = m & ~coarse & (deg > Lanes<uint32_t>(0u));
  const Lanes<uint64_t> packed = Lanes<uint64_t>::generate(
      [&](unsigned i) { return coarse.test(i) ? uint64_t(deg[i]) << 32 : uint64_t(deg[i]); });
  co_await w.compute(4);
  Lanes<uint64_t> before;
  uint64_t sums = 0;
  co_await cta_scan<uint64_t>(w, s.scan, packed, m, before, sums);
  const uint32_t coarse_total = uint32_t(sums >> 32), fine_total = uint32_t(sums);
  uint32_t base = 0;
  co_await cta_reserve(w, s.scan, a.edge_count, coarse_total + fine_total, base);
  const Lanes<uint32_t> out =
      Lanes<uint32_t>(base) + before.map([](uint64_t x) { return uint32_t(x >> 32); });
  const Lanes<uint32_t> rank = before.map([](uint64_t x) { return uint32_t(x); });
  if (coarse_total) { // uniform: every warp read the same sums
    co_await cta_gather(w, a, s, coarse & (deg >= Lanes<uint32_t>(threads)), lo, hi, out, carry);
    co_await warp_gather(w, a, s, coarse & (deg < Lanes<uint32_t>(threads)), lo, hi, out, carry);
  }
  if (fine_total)
    co_await fine_gather(w, a, s, fine, lo, deg, carry, rank, fine_total, base + coarse_total);
}

WarpTask merrill_contract(Warp& w, MerrillLevel a) {
  const CtaScanLayout s = CtaScanLayout::of(w);
  co_await cta_scan_init(w, s);
  const Mask m = first_threads(w, a.n);
  Lanes<uint32_t> u(0u);
  Mask keep;
  if (m.any()) {
    u = co_await w.load<uint32_t>(address_of<uint32_t>(a.edges, w.global_thread_id()), m);
    // Culling: a vertex already at a depth (an earlier level, or claimed
    // this level and seen) is dropped with a plain load, no atomic.
    const Lanes<uint32_t> d = co_await w.load<uint32_t>(address_of<uint32_t>(a.depth, u), m);
    co_await w.compute(2);
    const Mask fresh = m & (d == Lanes<uint32_t>(kInf));
    if (fresh.any()) {
      // Merrill stores the label with a plain store and lets racing
      // duplicates through; the CAS keeps one winner per vertex, so each
      // vertex enters one frontier (as in every other version).
      const Lanes<uint32_t> old =
          co_await w.atomic_cas<uint32_t>(address_of<uint32_t>(a.depth, u), Lanes<uint32_t>(kInf),
                                          Lanes<uint32_t>(a.level + 1), fresh);
      keep = fresh & (old == Lanes<uint32_t>(kInf));
    }
  }
  co_await cta_append(w, s, a.count, a.out, u, keep);
}

} // namespace tlmgpu::graph_apps
