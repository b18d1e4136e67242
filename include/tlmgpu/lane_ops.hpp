// The per-lane part of an atomic/red access, out of line (issue 13 item 4).
//
// A GpuAccess used to carry `std::array<LaneOp, kMaxLanes>` inline: about
// 1 KB per payload, copied whole on every hand-over although loads and
// stores carry no lane at all and a typical atomic request a few. LaneOps is
// a small vector whose storage is a slab sized to the lanes it holds (the
// next power of two), taken from and given back to a per-thread free list
// per size, so after warm-up no request allocates and a copy moves only the
// active lanes. It keeps value semantics: a copy owns its own lanes, as the
// array did, so a block that copies an access and changes one of them (the
// traffic checker keeps what it sent) sees no aliasing.
//
// Nothing here assumes the warp width: capacity grows with what is pushed.
// Kernel-free.
#pragma once

#include <cstdint>
#include <new>
#include <stdexcept>
#include <utility>

namespace tlmgpu {

// One lane's part of an atomic/red: where in the line, what operand(s), and
// (filled by whoever performs it) the old value. Values are raw bit patterns
// of `GpuAccess::type` (a float lives as its IEEE bits).
struct LaneOp {
  uint16_t offset = 0; // byte offset inside the line, aligned to the type size
  uint8_t lane = 0;    // SIMT lane that issued it
  uint64_t operand = 0;
  uint64_t compare = 0; // CAS only
  uint64_t result = 0;  // old value, written by the performing unit
};

namespace lane_slabs {

// Free slabs of 2^c lanes, linked through their first bytes. Per thread,
// because the CPU references of some workloads run on a thread of their own;
// constinit and trivially destructible so an access is a plain TLS load (no
// guard). Slabs left on the lists at exit stay reachable from them.
struct Free {
  Free* next;
};
constexpr unsigned kClasses = 16;
inline constinit thread_local Free* lists[kClasses] = {};

inline LaneOp* take(unsigned cls) {
  if (Free* f = lists[cls]) {
    lists[cls] = f->next;
    return reinterpret_cast<LaneOp*>(f);
  }
  return static_cast<LaneOp*>(::operator new(sizeof(LaneOp) << cls));
}
inline void give(LaneOp* p, unsigned cls) {
  Free* f = reinterpret_cast<Free*>(p);
  f->next = lists[cls];
  lists[cls] = f;
}

} // namespace lane_slabs

class LaneOps {
public:
  LaneOps() noexcept = default;
  LaneOps(const LaneOps& o) { assign(o); }
  LaneOps(LaneOps&& o) noexcept : p_(o.p_), n_(o.n_), cls_(o.cls_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  LaneOps& operator=(const LaneOps& o) {
    if (this != &o) assign(o);
    return *this;
  }
  LaneOps& operator=(LaneOps&& o) noexcept {
    if (this != &o) {
      release();
      std::swap(p_, o.p_);
      std::swap(n_, o.n_);
      std::swap(cls_, o.cls_);
    }
    return *this;
  }
  ~LaneOps() { release(); }

  unsigned size() const { return n_; }
  bool empty() const { return n_ == 0; }
  unsigned capacity() const { return p_ ? 1u << cls_ : 0; }
  LaneOp& operator[](unsigned i) { return p_[i]; }
  const LaneOp& operator[](unsigned i) const { return p_[i]; }
  LaneOp* begin() { return p_; }
  LaneOp* end() { return p_ + n_; }
  const LaneOp* begin() const { return p_; }
  const LaneOp* end() const { return p_ + n_; }

  LaneOp& push_back(const LaneOp& l) {
    if (n_ == capacity()) reserve(n_ + 1u);
    p_[n_] = l;
    return p_[n_++];
  }
  // Lanes past the old size start as LaneOp{}.
  void resize(unsigned n) {
    reserve(n);
    for (unsigned i = n_; i < n; ++i)
      p_[i] = LaneOp{};
    n_ = uint16_t(n);
  }
  // Keeps the slab: a buffer reused for the next request (the coalescer's)
  // does not go back to the free list and out again.
  void clear() { n_ = 0; }
  // Gives the slab back (a payload returning to its pool holds none).
  void release() {
    if (p_) lane_slabs::give(p_, cls_);
    p_ = nullptr;
    n_ = 0;
  }
  void reserve(unsigned n) {
    if (n <= capacity()) return;
    uint8_t c = 0;
    while ((1u << c) < n)
      ++c;
    if (c >= lane_slabs::kClasses) throw std::length_error("LaneOps: too many lanes");
    LaneOp* q = lane_slabs::take(c);
    for (unsigned i = 0; i < n_; ++i)
      q[i] = p_[i];
    if (p_) lane_slabs::give(p_, cls_);
    p_ = q;
    cls_ = c;
  }

private:
  void assign(const LaneOps& o) {
    n_ = 0; // nothing of ours needs keeping: reserve copies none
    reserve(o.n_);
    for (unsigned i = 0; i < o.n_; ++i)
      p_[i] = o.p_[i];
    n_ = o.n_;
  }

  LaneOp* p_ = nullptr;
  uint16_t n_ = 0;
  uint8_t cls_ = 0; // capacity 2^cls_ while p_ is set
};

} // namespace tlmgpu
