// DAB flush reorder unit, one per L2 memory sub-partition, kernel-free
// (style rule 1). Paper: Chou et al. §IV-D and Fig. 8; engineering notes
// seed-001 §3.5.2, §3.10, pitfalls P10-P13. See README.md.
//
// For each flush epoch every cluster sends this sub-partition one pre-flush
// message with, for each of its SMs, how many flush packets (transactions)
// that SM will send here, zero included. Packets arrive in any order, tagged
// (epoch, sm, seq). Once every cluster's message is in, packets are released
// to the ROP in round-robin SM order:
//   for k = 0, 1, ...: for sm = 0 .. sms-1: (sm, k) unless k >= expected[sm]
// so SM 0 packet 0, SM 1 packet 0, ..., SM 0 packet 1, ..., with SMs that
// have no packet k left skipped (dab.release_order = source_major: every
// packet of SM 0, then of SM 1, ...). A packet that arrives before its turn is
// parked (the paper's flush buffer, unbounded as in its simulations, P12);
// each next() pops the packet whose turn it is once it is there, so an
// arrival can release a chain of parked packets. Only the per-address order
// matters for the final values and every address lives in one
// sub-partition, so no order across sub-partitions is needed.
//
// Relaxed limit-study variants (dab.reorder = false, §3.10): packets are
// released in arrival order (DAB-NR), without waiting for pre-flush
// messages; with dab.allow_overlap (NR-OF, NR-CIF) several epochs may be open.
//
// Protocol violations are model bugs and throw InvariantError: a packet or
// pre-flush message for an epoch other than the open one (or the next one
// when none is open) while overlap is not allowed, a packet beyond its SM's
// announced count, a repeated packet or message, an SM, cluster or partition
// out of range. Epochs are numbered 1, 2, ... in the order they open.
#pragma once

#include "models/atomic_buffer/atomic_buffer_spec.hpp"
#include "models/atomic_buffer/flush_packet.hpp"
#include "tlmgpu/invariant.hpp" // InvariantError, thrown on protocol violations
#include "tlmgpu/stats.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tlmgpu {

class ReorderUnitCore {
public:
  // `spec` must be derived. `partition` is this unit's sub-partition (packets
  // must carry it); `sms` SMs in clusters of `sms_per_cluster` (SM s belongs
  // to cluster s / sms_per_cluster; use 1 for one message per SM). Throws
  // ConfigError for an empty geometry or sms not a multiple of the cluster.
  ReorderUnitCore(const AtomicBufferSpec& spec, uint32_t partition, uint32_t sms,
                  uint32_t sms_per_cluster, StatGroup& stats);

  bool reorders() const { return reorder_; }
  uint32_t clusters() const { return clusters_; }

  // Cluster `cluster`'s pre-flush message for `epoch`: counts[i] packets
  // will come from SM cluster * sms_per_cluster + i (size sms_per_cluster).
  void preflush(uint64_t epoch, uint32_t cluster, std::span<const uint32_t> counts);
  // A flush packet arrives from the interconnect.
  void arrive(FlushPacket p);
  // The next packet to apply at the ROP, if its turn has come and it has
  // arrived (round-robin order), or the oldest arrival (arrival order).
  std::optional<FlushPacket> next();

  // Every pre-flush message of `epoch` arrived and all its packets were
  // released by next(). Epochs not yet opened are not complete.
  bool epoch_complete(uint64_t epoch) const;
  // No epoch open: the next epoch may start.
  bool idle() const { return open_.empty(); }
  // Round-robin mode: the (sm, seq) whose arrival the unit waits for, if
  // all pre-flush messages are in (for deadlock reports).
  std::optional<std::pair<uint32_t, uint32_t>> awaited() const;
  // Packets waiting: parked out of order, or queued in arrival order.
  size_t waiting() const;

private:
  struct Epoch {
    uint32_t preflushes = 0;
    std::vector<bool> cluster_seen;
    std::vector<bool> known;              // per SM: its cluster's message arrived
    std::vector<uint32_t> expected;       // per SM, valid where known
    std::vector<std::set<uint32_t>> seen; // per SM: seqs arrived (repeat check)
    uint64_t expected_total = 0, released = 0;
    std::vector<std::map<uint32_t, FlushPacket>> parked; // round-robin: per SM, by seq
    uint32_t k = 0, sm = 0, max_expected = 0;            // round-robin cursor: SM sm's packet k
    bool cursor_done = false;
  };

  [[noreturn]] void fail(const std::string& what) const;
  Epoch& epoch_for(uint64_t epoch, const char* what);
  void start_cursor(Epoch& e);
  void advance_cursor(Epoch& e);
  void maybe_close(uint64_t id);
  bool all_preflushes(const Epoch& e) const { return e.preflushes == clusters_; }

  const bool reorder_, allow_overlap_, source_major_;
  const uint32_t partition_, sms_, sms_per_cluster_, clusters_;
  uint64_t next_epoch_ = 1; // the id the next new epoch must have
  std::map<uint64_t, Epoch> open_;
  std::deque<FlushPacket> arrival_queue_; // arrival-order modes
  size_t parked_ = 0;
  Counter &preflush_messages_, &packets_received_, &out_of_order_, &packets_released_,
      &ops_released_, &epochs_completed_;
  Histogram& parked_at_arrival_;
};

} // namespace tlmgpu
