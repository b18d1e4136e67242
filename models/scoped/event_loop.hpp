// A kernel-free discrete-event loop with C++20 coroutine tasks, for the
// scoped-cache protocol engine (README.md). SystemC would do the same job,
// but the litmus suite runs thousands of seeded schedules per variant, each a
// fresh system; a 100-line loop with no global kernel lets one process build
// and discard them freely (SystemC allows one elaboration per process) and
// keeps the protocol core testable without a kernel (style rule 1).
//
// Time is in cycles. Events at equal times run in the order they were
// scheduled, so a run is a pure function of its inputs and seed.
#pragma once

#include <coroutine>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tlmgpu::scoped {

class EventLoop {
public:
  uint64_t now() const { return now_; }
  void at(uint64_t t, std::coroutine_handle<> h) { q_.push({t < now_ ? now_ : t, seq_++, h}); }
  void after(uint64_t dt, std::coroutine_handle<> h) { at(now_ + dt, h); }
  // Runs until no event is left or time passes `limit`. False on the limit.
  bool run(uint64_t limit);
  bool idle() const { return q_.empty(); }

  // co_await loop.sleep(n): resume n cycles later (n = 0: after the events
  // already scheduled for now).
  auto sleep(uint64_t n) {
    struct Aw {
      EventLoop& l;
      uint64_t n;
      bool await_ready() const noexcept { return false; }
      void await_suspend(std::coroutine_handle<> h) { l.after(n, h); }
      void await_resume() const noexcept {}
    };
    return Aw{*this, n};
  }

private:
  struct Ev {
    uint64_t t, seq;
    std::coroutine_handle<> h;
    bool operator>(const Ev& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q_;
  uint64_t now_ = 0, seq_ = 0;
};

// A condition: coroutines wait on it and re-check their predicate when it is
// notified. `co_await until(c, pred)` is the only way to wait, so a spurious
// wake-up is harmless.
class Cond {
public:
  explicit Cond(EventLoop& l) : loop_(&l) {}
  void notify() {
    for (auto h : waiters_)
      loop_->after(0, h);
    waiters_.clear();
  }
  auto wait() {
    struct Aw {
      Cond& c;
      bool await_ready() const noexcept { return false; }
      void await_suspend(std::coroutine_handle<> h) { c.waiters_.push_back(h); }
      void await_resume() const noexcept {}
    };
    return Aw{*this};
  }
  size_t waiting() const { return waiters_.size(); }

private:
  EventLoop* loop_;
  std::vector<std::coroutine_handle<>> waiters_;
};

// Task<T>: a lazily started coroutine that returns T to the coroutine
// awaiting it, or runs detached when started with spawn().
template <class T = void>
class Task;

namespace detail {
struct PromiseBase {
  std::coroutine_handle<> continuation;
  bool detached = false;
  std::exception_ptr error;
  std::suspend_always initial_suspend() noexcept { return {}; }
  struct Final {
    bool await_ready() const noexcept { return false; }
    template <class P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
      auto& p = h.promise();
      if (p.detached) {
        if (p.error && p.on_error) p.on_error(p.error);
        if (p.live) p.live->erase(h.address());
        h.destroy();
        return std::noop_coroutine();
      }
      return p.continuation ? p.continuation : std::noop_coroutine();
    }
    void await_resume() const noexcept {}
  };
  Final final_suspend() noexcept { return {}; }
  void unhandled_exception() { error = std::current_exception(); }
  std::function<void(std::exception_ptr)> on_error; // detached tasks only
  std::unordered_set<void*>* live = nullptr;        // detached tasks only
};
// What a task hands its awaiter: a value, or nothing for Task<void>.
template <class T>
struct ValuePromise : PromiseBase {
  std::optional<T> value;
  void return_value(T v) { value = std::move(v); }
  T take() { return std::move(*value); }
};
template <>
struct ValuePromise<void> : PromiseBase {
  void return_void() {}
  void take() {}
};
} // namespace detail

template <class T>
class Task {
public:
  struct promise_type : detail::ValuePromise<T> {
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
  };
  using Handle = std::coroutine_handle<promise_type>;
  explicit Task(Handle h) : h_(h) {}
  Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task& operator=(Task&&) = delete;
  ~Task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) {
    h_.promise().continuation = caller;
    return h_;
  }
  T await_resume() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    return h_.promise().take();
  }
  Handle release() { return std::exchange(h_, {}); }

private:
  Handle h_;
};

// Owns detached tasks: each frees itself when done; those still suspended
// when the owner goes (a run stopped at its time limit) are destroyed with
// it, and with them the tasks they await.
class Spawner {
public:
  Spawner(EventLoop& loop, std::function<void(std::exception_ptr)> on_error)
      : loop_(loop), on_error_(std::move(on_error)) {}
  Spawner(const Spawner&) = delete;
  Spawner& operator=(const Spawner&) = delete;
  ~Spawner() {
    auto live = std::move(live_);
    for (void* a : live)
      std::coroutine_handle<>::from_address(a).destroy();
  }
  // Starts `t` `delay` cycles from now. An exception it throws goes to
  // on_error, since nobody awaits it.
  template <class T>
  void spawn(Task<T> t, uint64_t delay = 0) {
    auto h = t.release();
    h.promise().detached = true;
    h.promise().on_error = on_error_;
    h.promise().live = &live_;
    live_.insert(h.address());
    loop_.after(delay, h);
  }
  size_t live() const { return live_.size(); }

private:
  EventLoop& loop_;
  std::function<void(std::exception_ptr)> on_error_;
  std::unordered_set<void*> live_;
};

// Waits until `pred()` holds, re-checking whenever `c` is notified.
template <class Pred>
Task<void> until(Cond& c, Pred pred) {
  while (!pred())
    co_await c.wait();
}

} // namespace tlmgpu::scoped
