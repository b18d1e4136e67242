// The SIMT warp API: kernels are C++20 coroutines over one warp
// (architecture.md section 4). Every instruction the model times is an
// awaitable; co_await hands it to the SM, which times it, performs it, writes
// the results and resumes the coroutine. Kernel code therefore reads like CUDA
// written per warp, and computes real values.
//
// The histogram of the LAB paper (Listing 1), one device-scope commutative
// atomicAdd per element with a grid-stride loop:
//
//   struct HistArgs { Addr in, hist; uint64_t n; };
//   WarpTask histogram(Warp& w, const HistArgs& a) {
//     for (Lanes<uint64_t> i = w.global_thread_id();; i += w.grid_threads()) {
//       Mask m = (i < a.n) & w.active();        // for (i = tid; i < n; i += stride)
//       if (m.empty()) co_return;
//       Lanes<uint32_t> px = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, i), m);
//       co_await w.compute(2);                 // index arithmetic, loop test
//       co_await w.atomic<uint32_t>(AtomicOp::Add, address_of<uint32_t>(a.hist, px), 1u, m,
//                                   MemOrder::Commutative, Scope::Device);
//     }
//   }
//
// Only warp instructions and other WarpTasks may be co_awaited (a foreign
// awaitable would suspend the warp with no instruction for the SM to run).
// A WarpTask may call another as a device function: `co_await helper(w, ...)`.
//
// The SM drives a warp like this (see tests/unit/warp_test.cpp):
//   Warp w(geometry); WarpTask t = kernel(w, args);
//   t.resume();                                   // runs to the first instruction
//   while (!t.done()) {
//     const WarpInstr* in = w.pending();          // time and perform it ...
//     w.results()[lane] = ...;                    // ... loads/atomics: raw bits
//     w.complete(); t.resume();                   // runs to the next instruction
//   }
//   t.rethrow_if_failed();
#pragma once

#include "tlmgpu/simt/warp_instr.hpp"

#include <coroutine>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tlmgpu {

class Warp;
class WarpTask;
template <class R>
class WarpOp;

namespace detail {
template <class T>
struct is_warp_awaitable : std::false_type {};
template <class R>
struct is_warp_awaitable<WarpOp<R>> : std::true_type {};
template <>
struct is_warp_awaitable<WarpTask> : std::true_type {};
} // namespace detail

class [[nodiscard]] WarpTask {
public:
  struct promise_type;
  using Handle = std::coroutine_handle<promise_type>;

  struct FinalAwaiter {
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(Handle h) noexcept;
    void await_resume() const noexcept {}
  };

  struct promise_type {
    Warp* warp = nullptr;
    std::exception_ptr error;
    std::coroutine_handle<> continuation; // the caller when used as a device function

    // The promise finds the Warp among the coroutine's parameters, so the
    // task can resume whichever nested call is suspended.
    template <class... A>
    explicit promise_type(A&... args) : warp(find_warp(args...)) {
      static_assert((std::is_same_v<A, Warp> || ...),
                    "a WarpTask coroutine takes a (non-const) Warp& parameter");
    }
    WarpTask get_return_object() { return WarpTask(Handle::from_promise(*this)); }
    // The SM starts a warp when it places it, not when the kernel is called.
    std::suspend_always initial_suspend() noexcept { return {}; }
    // Suspend at the end so the SM observes completion and owns the frame.
    FinalAwaiter final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }

    template <class A>
    A&& await_transform(A&& a) noexcept {
      static_assert(detail::is_warp_awaitable<std::remove_cvref_t<A>>::value,
                    "a kernel may only co_await warp instructions (w.load, w.atomic, ...) or "
                    "another WarpTask");
      return std::forward<A>(a);
    }

  private:
    template <class... A>
    static Warp* find_warp(A&... args);
  };

  WarpTask() = default;
  WarpTask(WarpTask&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  WarpTask& operator=(WarpTask&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  WarpTask(const WarpTask&) = delete;
  WarpTask& operator=(const WarpTask&) = delete;
  ~WarpTask() { reset(); }

  bool valid() const { return bool(h_); }
  // Starts the warp, or continues it after Warp::complete(); returns when the
  // kernel suspends on its next instruction or finishes.
  void resume();
  bool done() const { return !h_ || h_.done(); }
  bool failed() const { return h_ && h_.promise().error; }
  void rethrow_if_failed() const {
    if (failed()) std::rethrow_exception(h_.promise().error);
  }
  Warp& warp() const { return *h_.promise().warp; }

  // `co_await helper(w, ...)`: runs a nested WarpTask on the same warp.
  struct CallAwaiter {
    Handle child;
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(Handle caller);
    void await_resume() const {
      if (child.promise().error) std::rethrow_exception(child.promise().error);
    }
  };
  CallAwaiter operator co_await() && noexcept { return CallAwaiter{h_}; }

private:
  explicit WarpTask(Handle h) : h_(h) {}
  void reset() {
    if (h_) h_.destroy();
    h_ = {};
  }
  Handle h_;
};

// The awaitable one instruction returns. R is void or Lanes<T>.
template <class R>
class [[nodiscard]] WarpOp {
public:
  explicit WarpOp(Warp& w) : w_(&w) {}
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept;
  R await_resume() const;

private:
  Warp* w_;
};

class Warp {
public:
  struct Geometry {
    Dim3 grid, block;
    Index3 cta; // this warp's CTA in the grid
    uint32_t warp_in_cta = 0;
    uint32_t warp_size = 32; // sm.warp_size: 32 or 64 on a platform
    uint32_t sm = 0;         // the SM the CTA runs on (PTX %smid)
  };
  // Throws std::invalid_argument if the geometry is inconsistent.
  explicit Warp(const Geometry& g);
  Warp(const Warp&) = delete; // coroutine frames point at it
  Warp& operator=(const Warp&) = delete;

  // --- identity --------------------------------------------------------------
  uint32_t warp_in_cta() const { return g_.warp_in_cta; }
  uint32_t warps_per_cta() const { return warps_per_cta_; }
  uint64_t global_warp() const { return cta_linear_ * warps_per_cta_ + g_.warp_in_cta; }
  Index3 cta_id() const { return g_.cta; }
  uint64_t cta_linear() const { return cta_linear_; }
  Dim3 block_dim() const { return g_.block; }
  Dim3 grid_dim() const { return g_.grid; }
  uint32_t lane_count() const { return g_.warp_size; }
  // The SM this warp's CTA was placed on, as PTX's %smid: known only once the
  // dispatcher chose, so a program may use it for locality (which queues
  // share its L1) but not for correctness.
  uint32_t sm_id() const { return g_.sm; }
  uint64_t grid_threads() const { return g_.grid.count() * g_.block.count(); }
  // Linear thread index in the block (threadIdx.x + y * bx + z * bx * by).
  Lanes<uint32_t> thread_idx() const { return thread_idx_; }
  Lanes<uint32_t> tid_x() const { return thread_idx_ % g_.block.x; }
  Lanes<uint32_t> tid_y() const { return (thread_idx_ / g_.block.x) % g_.block.y; }
  Lanes<uint32_t> tid_z() const { return thread_idx_ / (g_.block.x * g_.block.y); }
  Lanes<uint64_t> global_thread_id() const {
    return Lanes<uint64_t>(cta_linear_ * g_.block.count()) + thread_idx_.as<uint64_t>();
  }
  // Lanes that exist: the last warp of a block may be partial.
  Mask active() const { return active_; }

  // --- instructions (co_await each) --------------------------------------------
  // Orders on plain loads/stores are PTX ld.acquire / st.release; Relaxed is a
  // plain (weak) access.
  template <MemoryValue T>
  WarpOp<Lanes<T>> load(const Lanes<Addr>& addrs, Mask m, MemOrder order = MemOrder::Relaxed,
                        Scope scope = Scope::Device);
  template <MemoryValue T>
  WarpOp<void> store(const Lanes<Addr>& addrs, const Lanes<T>& v, Mask m,
                     MemOrder order = MemOrder::Relaxed, Scope scope = Scope::Device);
  // Returns the old values. op must not be Cas (use atomic_cas).
  template <AtomicValue T>
  WarpOp<Lanes<T>> atomic(AtomicOp op, const Lanes<Addr>& addrs, const Lanes<T>& v, Mask m,
                          MemOrder order = MemOrder::Relaxed, Scope scope = Scope::Device);
  template <AtomicValue T>
  WarpOp<Lanes<T>> atomic_cas(const Lanes<Addr>& addrs, const Lanes<T>& compare,
                              const Lanes<T>& value, Mask m, MemOrder order = MemOrder::Relaxed,
                              Scope scope = Scope::Device);
  // Remote-scope-promoted atomics (seed-002 §1.7, the sRSP paper's rem_acq,
  // rem_rel, rem_ar): device scope, and they also synchronise with work-groups
  // that synchronise at CTA scope on other SMs. order: Acquire, Release or
  // AcqRel. The L1's protocol policy (l1.rsp) decides how; with none they
  // are plain device-scope atomics (the negative control).
  template <AtomicValue T>
  WarpOp<Lanes<T>> atomic_remote(AtomicOp op, const Lanes<Addr>& addrs, const Lanes<T>& v, Mask m,
                                 MemOrder order);
  template <AtomicValue T>
  WarpOp<Lanes<T>> atomic_cas_remote(const Lanes<Addr>& addrs, const Lanes<T>& compare,
                                     const Lanes<T>& value, Mask m, MemOrder order);
  // No result (PTX red): what nvcc emits for an atomic whose result is unused.
  template <AtomicValue T>
  WarpOp<void> red(AtomicOp op, const Lanes<Addr>& addrs, const Lanes<T>& v, Mask m,
                   MemOrder order = MemOrder::Relaxed, Scope scope = Scope::Device);
  // Shared memory: byte offsets into the CTA's shared window (static + dynamic).
  template <MemoryValue T>
  WarpOp<Lanes<T>> shared_load(const Lanes<Addr>& offsets, Mask m);
  template <MemoryValue T>
  WarpOp<void> shared_store(const Lanes<Addr>& offsets, const Lanes<T>& v, Mask m);
  template <AtomicValue T>
  WarpOp<Lanes<T>> shared_atomic(AtomicOp op, const Lanes<Addr>& offsets, const Lanes<T>& v,
                                 Mask m);
  template <AtomicValue T>
  WarpOp<Lanes<T>> shared_atomic_cas(const Lanes<Addr>& offsets, const Lanes<T>& compare,
                                     const Lanes<T>& value, Mask m);
  WarpOp<void> compute(uint32_t n);
  WarpOp<void> barrier();
  // __threadfence() is fence(Scope::Device); __threadfence_block() fence(Scope::Cta).
  WarpOp<void> fence(Scope scope, MemOrder order = MemOrder::SeqCst);

  // --- SM side -------------------------------------------------------------------
  // The instruction the coroutine is suspended on; null before the first
  // resume, after complete() and once the kernel returned.
  const WarpInstr* pending() const { return pending_ ? &instr_ : nullptr; }
  // Where the SM writes loaded / old values (raw bits, zero-extended), per
  // active lane, before resuming. Inactive lanes read back as 0.
  Lanes<uint64_t>& results() { return results_; }
  void complete() { pending_ = false; }
  // The kernel returned (normally or by an exception).
  bool exited() const { return exited_; }

private:
  friend class WarpTask;
  template <class R>
  friend class WarpOp;

  WarpInstr& stage(WarpInstr::Kind k, Mask m);
  template <class T>
  WarpInstr& stage_rmw(WarpInstr::Kind k, AtomicOp op, const Lanes<Addr>& a, const Lanes<T>& v,
                       Mask m);
  void suspend_on(std::coroutine_handle<> h) {
    staged_ = false;
    pending_ = true;
    resume_point_ = h;
  }

  Geometry g_;
  uint32_t warps_per_cta_ = 0;
  uint64_t cta_linear_ = 0;
  Lanes<uint32_t> thread_idx_;
  Mask active_;
  // The flags the SM reads on every issue and response sit just before the
  // instruction's head (its kind), on the same cache line: after the 1.5 KB
  // of lanes they cost a miss of their own (issue 13).
  bool staged_ = false, pending_ = false, exited_ = false;
  std::coroutine_handle<> resume_point_; // innermost suspended (possibly nested) task
  WarpInstr instr_;
  Lanes<uint64_t> results_;
};

// Throws std::invalid_argument for an op the memory system cannot perform on T.
void check_atomic(AtomicOp op, DataType t, bool returns_value);
// Throws std::invalid_argument for an order a load (is_store = false) or store cannot have.
void check_access_order(MemOrder order, bool is_store);
// Throws std::invalid_argument unless `order` is a remote op's (Acquire, Release, AcqRel).
void check_remote_order(MemOrder order);

// ---------------------------------------------------------------- inline parts

template <class... A>
Warp* WarpTask::promise_type::find_warp(A&... args) {
  Warp* w = nullptr;
  auto pick = [&w](auto& a) {
    if constexpr (std::is_same_v<std::remove_reference_t<decltype(a)>, Warp>)
      if (!w) w = &a;
  };
  (pick(args), ...);
  return w;
}

inline std::coroutine_handle<> WarpTask::FinalAwaiter::await_suspend(Handle h) noexcept {
  promise_type& p = h.promise();
  if (p.continuation) return p.continuation;
  p.warp->exited_ = true;
  p.warp->pending_ = false;
  return std::noop_coroutine();
}

inline std::coroutine_handle<> WarpTask::CallAwaiter::await_suspend(Handle caller) {
  if (caller.promise().warp != child.promise().warp)
    throw std::logic_error("a nested WarpTask must run on its caller's Warp");
  child.promise().continuation = caller;
  return child;
}

inline void WarpTask::resume() {
  if (done()) throw std::logic_error("WarpTask::resume() on a finished or empty task");
  Warp& w = *h_.promise().warp;
  if (w.pending_)
    throw std::logic_error("WarpTask::resume() with an instruction pending: call complete() first");
  std::coroutine_handle<> next = std::exchange(w.resume_point_, {});
  // The kernel's Lanes operations touch this warp's lanes only (lanes.hpp).
  struct Width {
    unsigned outer = simt_lanes::in_use;
    ~Width() { simt_lanes::in_use = outer; }
  } width;
  simt_lanes::in_use = w.lane_count();
  (next ? next : std::coroutine_handle<>(h_)).resume();
}

template <class R>
void WarpOp<R>::await_suspend(std::coroutine_handle<> h) noexcept {
  w_->suspend_on(h);
}

template <class R>
R WarpOp<R>::await_resume() const {
  if constexpr (!std::is_void_v<R>) {
    using T = typename R::value_type;
    return w_->results_.map([](uint64_t b) { return from_bits<T>(b); });
  }
}

template <MemoryValue T>
WarpOp<Lanes<T>> Warp::load(const Lanes<Addr>& addrs, Mask m, MemOrder order, Scope scope) {
  check_access_order(order, false);
  WarpInstr& in = stage(WarpInstr::Kind::Load, m);
  in.type = data_type_of<T>();
  in.size = sizeof(T);
  in.order = order;
  in.scope = scope;
  in.addr = addrs;
  return WarpOp<Lanes<T>>(*this);
}

template <MemoryValue T>
WarpOp<void> Warp::store(const Lanes<Addr>& addrs, const Lanes<T>& v, Mask m, MemOrder order,
                         Scope scope) {
  check_access_order(order, true);
  WarpInstr& in = stage(WarpInstr::Kind::Store, m);
  in.type = data_type_of<T>();
  in.size = sizeof(T);
  in.order = order;
  in.scope = scope;
  in.addr = addrs;
  in.operand = v.map([](T x) { return to_bits(x); });
  return WarpOp<void>(*this);
}

template <class T>
WarpInstr& Warp::stage_rmw(WarpInstr::Kind k, AtomicOp op, const Lanes<Addr>& a, const Lanes<T>& v,
                           Mask m) {
  check_atomic(op, data_type_of<T>(),
               k == WarpInstr::Kind::Atomic || k == WarpInstr::Kind::SharedAtomic);
  WarpInstr& in = stage(k, m);
  in.type = data_type_of<T>();
  in.size = sizeof(T);
  in.op = op;
  in.addr = a;
  in.operand = v.map([](T x) { return to_bits(x); });
  return in;
}

template <AtomicValue T>
WarpOp<Lanes<T>> Warp::atomic(AtomicOp op, const Lanes<Addr>& addrs, const Lanes<T>& v, Mask m,
                              MemOrder order, Scope scope) {
  if (op == AtomicOp::Cas) throw std::invalid_argument("atomic(Cas, ...): use atomic_cas");
  WarpInstr& in = stage_rmw(WarpInstr::Kind::Atomic, op, addrs, v, m);
  in.order = order;
  in.scope = scope;
  return WarpOp<Lanes<T>>(*this);
}

template <AtomicValue T>
WarpOp<Lanes<T>> Warp::atomic_cas(const Lanes<Addr>& addrs, const Lanes<T>& compare,
                                  const Lanes<T>& value, Mask m, MemOrder order, Scope scope) {
  WarpInstr& in = stage_rmw(WarpInstr::Kind::Atomic, AtomicOp::Cas, addrs, value, m);
  in.compare = compare.map([](T x) { return to_bits(x); });
  in.order = order;
  in.scope = scope;
  return WarpOp<Lanes<T>>(*this);
}

template <AtomicValue T>
WarpOp<Lanes<T>> Warp::atomic_remote(AtomicOp op, const Lanes<Addr>& addrs, const Lanes<T>& v,
                                     Mask m, MemOrder order) {
  check_remote_order(order);
  if (op == AtomicOp::Cas)
    throw std::invalid_argument("atomic_remote(Cas, ...): use atomic_cas_remote");
  WarpOp<Lanes<T>> r = atomic(op, addrs, v, m, order, Scope::Device);
  instr_.remote = true; // the instruction atomic() just staged
  return r;
}

template <AtomicValue T>
WarpOp<Lanes<T>> Warp::atomic_cas_remote(const Lanes<Addr>& addrs, const Lanes<T>& compare,
                                         const Lanes<T>& value, Mask m, MemOrder order) {
  check_remote_order(order);
  WarpOp<Lanes<T>> r = atomic_cas(addrs, compare, value, m, order, Scope::Device);
  instr_.remote = true; // the instruction atomic_cas() just staged
  return r;
}

template <AtomicValue T>
WarpOp<void> Warp::red(AtomicOp op, const Lanes<Addr>& addrs, const Lanes<T>& v, Mask m,
                       MemOrder order, Scope scope) {
  WarpInstr& in = stage_rmw(WarpInstr::Kind::Red, op, addrs, v, m);
  in.order = order;
  in.scope = scope;
  return WarpOp<void>(*this);
}

template <MemoryValue T>
WarpOp<Lanes<T>> Warp::shared_load(const Lanes<Addr>& offsets, Mask m) {
  WarpInstr& in = stage(WarpInstr::Kind::SharedLoad, m);
  in.type = data_type_of<T>();
  in.size = sizeof(T);
  in.scope = Scope::Cta;
  in.addr = offsets;
  return WarpOp<Lanes<T>>(*this);
}

template <MemoryValue T>
WarpOp<void> Warp::shared_store(const Lanes<Addr>& offsets, const Lanes<T>& v, Mask m) {
  WarpInstr& in = stage(WarpInstr::Kind::SharedStore, m);
  in.type = data_type_of<T>();
  in.size = sizeof(T);
  in.scope = Scope::Cta;
  in.addr = offsets;
  in.operand = v.map([](T x) { return to_bits(x); });
  return WarpOp<void>(*this);
}

template <AtomicValue T>
WarpOp<Lanes<T>> Warp::shared_atomic(AtomicOp op, const Lanes<Addr>& offsets, const Lanes<T>& v,
                                     Mask m) {
  if (op == AtomicOp::Cas)
    throw std::invalid_argument("shared_atomic(Cas, ...): use shared_atomic_cas");
  stage_rmw(WarpInstr::Kind::SharedAtomic, op, offsets, v, m).scope = Scope::Cta;
  return WarpOp<Lanes<T>>(*this);
}

template <AtomicValue T>
WarpOp<Lanes<T>> Warp::shared_atomic_cas(const Lanes<Addr>& offsets, const Lanes<T>& compare,
                                         const Lanes<T>& value, Mask m) {
  WarpInstr& in = stage_rmw(WarpInstr::Kind::SharedAtomic, AtomicOp::Cas, offsets, value, m);
  in.compare = compare.map([](T x) { return to_bits(x); });
  in.scope = Scope::Cta;
  return WarpOp<Lanes<T>>(*this);
}

} // namespace tlmgpu
