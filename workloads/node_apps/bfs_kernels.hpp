// The real kernel of a bfs-tasks level task (bfs_tasks.cpp), for a node
// whose GPUs are the full GPU model: the same label-correcting expansion as
// the task's CPU body, as loads, stores and an atomic on the task's blocks
// in device memory, one thread per frontier vertex (grid-stride).
#pragma once

#include "workloads/node_apps/task_kernel.hpp"

#include <cstdint>

namespace tlmgpu::bfs {

// Threads per level kernel at most; a larger frontier is covered by the
// grid-stride loop.
constexpr uint64_t kMaxThreads = 1024;

// Blocks (dependency order): `seen`, this partition's copy of the levels
// (u32 per vertex of [base, base + rows)); `graph`, the partition's CSR
// (rows + 1 offsets, then the column indices); `front`, `nf` global vertex
// ids (unique); `out`, a zeroed word count then the neighbours reached.
// `expansions` counts the vertices expanded: instrumentation for the app's
// metrics (the CPU body counts the same), not data the kernel computes on.
inline WarpTask expand(Warp& w, Addr seen, Addr graph, Addr front, Addr out, uint64_t nf,
                       uint32_t base, uint32_t rows, uint32_t level, uint64_t* expansions) {
  using L = Lanes<uint32_t>;
  for (Lanes<uint64_t> i = w.global_thread_id();; i += Lanes<uint64_t>(w.grid_threads())) {
    Mask m = w.active() & (i < Lanes<uint64_t>(nf));
    if (m.empty()) co_return;
    const L v = co_await w.load<uint32_t>(address_of<uint32_t>(front, i), m);
    const L x = v - L(base);
    const L s = co_await w.load<uint32_t>(address_of<uint32_t>(seen, x), m);
    co_await w.compute(2);
    // label-correcting: a copy already at this level or nearer (another
    // partition's vertex reached it earlier, or a stale LC copy did not
    // know) is not expanded again; the frontier is unique, so no two lanes
    // write one vertex
    m &= s > L(level);
    if (m.empty()) continue;
    co_await w.store<uint32_t>(address_of<uint32_t>(seen, x), L(level), m);
    *expansions += m.count();
    const L e0 = co_await w.load<uint32_t>(address_of<uint32_t>(graph, x), m);
    const L e1 = co_await w.load<uint32_t>(address_of<uint32_t>(graph, x + L(1)), m);
    const L deg = e1 - e0;
    // each lane claims `deg` slots of the output (the lanes of a warp, and
    // the warps of the grid, share one counter: the order differs from the
    // CPU body's, which the driver's sort of the next frontier undoes)
    const L slot =
        co_await w.atomic<uint32_t>(AtomicOp::Add, address_of<uint32_t>(out, L(0)), deg, m);
    co_await w.compute(2);
    for (L j(0);; j += L(1)) {
      const Mask e = m & (j < deg);
      if (e.empty()) break;
      const L u = co_await w.load<uint32_t>(address_of<uint32_t>(graph, L(rows + 1) + e0 + j), e);
      co_await w.store<uint32_t>(address_of<uint32_t>(out, L(1) + slot + j), u, e);
    }
  }
}

} // namespace tlmgpu::bfs
