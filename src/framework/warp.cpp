// Non-template parts of the SIMT warp API (include/tlmgpu/simt/warp.hpp).
#include "tlmgpu/simt/warp.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <algorithm>
#include <string>

namespace tlmgpu {

std::string_view to_string(WarpInstr::Kind k) {
  switch (k) {
  case WarpInstr::Kind::Compute:
    return "compute";
  case WarpInstr::Kind::Load:
    return "load";
  case WarpInstr::Kind::Store:
    return "store";
  case WarpInstr::Kind::Atomic:
    return "atomic";
  case WarpInstr::Kind::Red:
    return "red";
  case WarpInstr::Kind::SharedLoad:
    return "shared_load";
  case WarpInstr::Kind::SharedStore:
    return "shared_store";
  case WarpInstr::Kind::SharedAtomic:
    return "shared_atomic";
  case WarpInstr::Kind::Barrier:
    return "barrier";
  case WarpInstr::Kind::Fence:
    return "fence";
  case WarpInstr::Kind::Exit:
    return "exit";
  }
  return "?";
}

namespace {
template <class D>
std::string dims(D d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}
} // namespace

Warp::Warp(const Geometry& g) : g_(g) {
  if (g.warp_size < 1 || g.warp_size > kMaxLanes)
    throw std::invalid_argument("warp size " + std::to_string(g.warp_size) + " is not in [1, " +
                                std::to_string(kMaxLanes) + "]");
  if (g.grid.count() == 0 || g.block.count() == 0)
    throw std::invalid_argument("empty grid " + dims(g.grid) + " or block " + dims(g.block));
  if (g.cta.x >= g.grid.x || g.cta.y >= g.grid.y || g.cta.z >= g.grid.z)
    throw std::invalid_argument("CTA " + dims(g.cta) + " is outside the grid " + dims(g.grid));
  const uint64_t threads = g.block.count();
  warps_per_cta_ = uint32_t((threads + g.warp_size - 1) / g.warp_size);
  if (g.warp_in_cta >= warps_per_cta_)
    throw std::invalid_argument("warp " + std::to_string(g.warp_in_cta) + " of a block of " +
                                std::to_string(threads) + " threads, which has " +
                                std::to_string(warps_per_cta_) + " warps");
  cta_linear_ = g.cta.x + uint64_t(g.grid.x) * (g.cta.y + uint64_t(g.grid.y) * g.cta.z);
  instr_.warp = global_warp();
  instr_.cta = cta_linear_;
  const uint64_t first = uint64_t(g.warp_in_cta) * g.warp_size;
  const uint64_t n = std::min<uint64_t>(g.warp_size, threads - first);
  active_ = Mask::all(unsigned(n));
  thread_idx_ = Lanes<uint32_t>::generate([&](unsigned l) { return uint32_t(first + l); });
}

WarpInstr& Warp::stage(WarpInstr::Kind k, Mask m) {
  // One instruction at a time: a second one before the first was awaited
  // means an awaitable was dropped (or stored and reordered), which would
  // silently lose or swap an instruction.
  if (staged_) throw std::logic_error("a warp instruction was created but never co_awaited");
  if (pending_) throw std::logic_error("warp instruction issued while another is pending");
  staged_ = true;
  instr_.kind = k;
  instr_.count = 0;
  instr_.mask = m & active_;
  instr_.type = DataType::U32;
  instr_.size = 0;
  instr_.op = AtomicOp::Add;
  instr_.order = MemOrder::Relaxed;
  instr_.scope = Scope::Device;
  instr_.remote = false;
  instr_.results = &results_;
  results_.fill(0);
  return instr_;
}

WarpOp<void> Warp::compute(uint32_t n) {
  stage(WarpInstr::Kind::Compute, active_).count = n;
  return WarpOp<void>(*this);
}

WarpOp<void> Warp::barrier() {
  stage(WarpInstr::Kind::Barrier, active_).scope = Scope::Cta;
  return WarpOp<void>(*this);
}

WarpOp<void> Warp::fence(Scope scope, MemOrder order) {
  if (order == MemOrder::Relaxed || order == MemOrder::Commutative)
    throw std::invalid_argument("fence with order " + std::string(to_string(order)) +
                                " orders nothing");
  WarpInstr& in = stage(WarpInstr::Kind::Fence, active_);
  in.scope = scope;
  in.order = order;
  return WarpOp<void>(*this);
}

void check_atomic(AtomicOp op, DataType t, bool returns_value) {
  if (!atomic_supported(op, t))
    throw std::invalid_argument("atomic " + std::string(to_string(op)) + " is not supported on " +
                                std::string(to_string(t)));
  // PTX red has no exch/cas: without the old value they are plain stores.
  if (!returns_value && (op == AtomicOp::Exch || op == AtomicOp::Cas))
    throw std::invalid_argument("red " + std::string(to_string(op)) +
                                " does not exist: use atomic (its result is the point)");
}

void check_access_order(MemOrder order, bool is_store) {
  const bool ok = order == MemOrder::Relaxed || order == MemOrder::SeqCst ||
                  order == (is_store ? MemOrder::Release : MemOrder::Acquire);
  if (!ok)
    throw std::invalid_argument(std::string(is_store ? "store" : "load") + " cannot have order " +
                                std::string(to_string(order)));
}

void check_remote_order(MemOrder order) {
  if (order != MemOrder::Acquire && order != MemOrder::Release && order != MemOrder::AcqRel)
    throw std::invalid_argument("a remote atomic is rem_acq, rem_rel or rem_ar: order acquire, "
                                "release or acq_rel, not " +
                                std::string(to_string(order)));
}

} // namespace tlmgpu
