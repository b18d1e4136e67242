// Kernel-free heart of the random-traffic initiator: makes seeded random
// loads, stores, atomics and reds of every op and type, applies each to a
// reference memory at issue, and checks every returned value against what the
// reference said at that moment.
//
// Why checking at issue is exact: each generator owns a private region and
// keeps at most one request per line in flight, so nobody else can change a
// byte between issue and service. Contention across generators comes from a
// shared counter word that every generator hits with atomicAdd(1); those old
// values are checked globally (SharedCounterLog): they must be exactly
// 0..N-1, each once, and the final value N.
#pragma once

#include "tlmgpu/backing_store.hpp"
#include "tlmgpu/types.hpp"

#include <functional>
#include <random>
#include <string>
#include <vector>

namespace tlmgpu {

struct TrafficParams {
  uint64_t requests = 2000;                                // per generator
  uint32_t footprint = 16384;                              // bytes of private region per generator
  uint32_t load_pct = 40, store_pct = 25, atomic_pct = 25; // rest: red
  uint32_t shared_pct = 5;   // of atomics: the shared contended counter
  uint32_t outstanding = 8;  // AT: requests in flight per generator
  bool inject_fault = false; // corrupt one reference byte: proves the checker can fail
  // false: float add/sub atomics and reds are issued Relaxed, never
  // Commutative. A mechanism that buffers commutative updates (LAB, PHI)
  // reassociates float sums, which this exact, in-order checker cannot follow.
  bool comm_floats = true;
};

struct TrafficRequest {
  Addr line = 0;
  GpuAccess access;
  std::array<uint8_t, kMaxLineBytes> data{}, byte_enable{}, expect{};
  std::array<uint64_t, kMaxLanes> expect_results{};
  bool shared_counter = false;
};

class SharedCounterLog {
public:
  void record(uint64_t old_value) { seen_.push_back(old_value); }
  // "" when the returned old values are a permutation of 0..N-1 and the final
  // value is N; else what is wrong.
  std::string verify(uint64_t final_value) const;
  uint64_t count() const { return seen_.size(); }

private:
  std::vector<uint64_t> seen_;
};

class TrafficCore {
public:
  TrafficCore(const TrafficParams& p, unsigned generator, Addr region_base, Addr shared_counter,
              unsigned line_bytes, unsigned sector_bytes, uint64_t seed);

  // Builds the next request into r (skipping lines for which busy(line) is
  // true) and applies it to the reference. False if every line tried is busy.
  bool next(TrafficRequest& r, const std::function<bool(Addr)>& busy);
  // "" if the completed request returned what the reference expected.
  std::string check(const TrafficRequest& r, const uint8_t* data, const GpuAccess& done) const;

  const BackingStore& reference() const { return ref_; }
  Addr base() const { return base_; }
  uint32_t footprint() const { return params_.footprint; }

private:
  uint64_t below(uint64_t n) { return rng_() % n; } // deterministic on every libstdc++
  uint64_t random_value(DataType t);
  void make_load(TrafficRequest& r);
  void make_store(TrafficRequest& r);
  void make_rmw(TrafficRequest& r, AccessKind kind);
  void make_shared(TrafficRequest& r);

  TrafficParams params_;
  unsigned gen_;
  Addr base_, shared_;
  unsigned line_, sector_, sectors_;
  std::mt19937_64 rng_;
  BackingStore ref_;
  bool fault_done_ = false;
};

} // namespace tlmgpu
