#include "models/atomic_buffer/reorder_unit_core.hpp"

#include "tlmgpu/invariant.hpp"

#include <algorithm>

namespace tlmgpu {

namespace {

uint32_t checked_clusters(const AtomicBufferSpec& s, uint32_t sms, uint32_t sms_per_cluster) {
  if (s.reorder && s.allow_overlap)
    throw ConfigError("ReorderUnitCore: dab.allow_overlap needs dab.reorder = false (call "
                      "AtomicBufferSpec::derive)");
  if (sms == 0 || sms_per_cluster == 0 || sms % sms_per_cluster != 0)
    throw ConfigError("ReorderUnitCore: " + std::to_string(sms) + " SMs do not form clusters of " +
                      std::to_string(sms_per_cluster));
  return sms / sms_per_cluster;
}

std::string id(uint64_t epoch, uint32_t sm, uint32_t seq) {
  return "(epoch " + std::to_string(epoch) + ", sm " + std::to_string(sm) + ", seq " +
         std::to_string(seq) + ")";
}

} // namespace

ReorderUnitCore::ReorderUnitCore(const AtomicBufferSpec& spec, uint32_t partition, uint32_t sms,
                                 uint32_t sms_per_cluster, StatGroup& stats)
    : reorder_(spec.reorder), allow_overlap_(spec.allow_overlap),
      source_major_(spec.source_major()), partition_(partition), sms_(sms),
      sms_per_cluster_(sms_per_cluster), clusters_(checked_clusters(spec, sms, sms_per_cluster)),
      preflush_messages_(
          stats.counter("preflush_messages", "messages", "pre-flush count messages received")),
      packets_received_(stats.counter("packets_received", "packets", "flush packets arrived")),
      out_of_order_(stats.counter("out_of_order_arrivals", "packets",
                                  "round-robin mode: packets that arrived before their turn "
                                  "and were parked")),
      packets_released_(
          stats.counter("packets_released", "packets", "flush packets released to the ROP")),
      ops_released_(stats.counter("ops_released", "ops", "buffer entries released to the ROP")),
      epochs_completed_(stats.counter("epochs_completed", "epochs",
                                      "flush epochs whose every packet was released")),
      parked_at_arrival_(stats.histogram("parked_at_arrival", "packets",
                                         "round-robin mode: out-of-order packets parked, sampled "
                                         "at each arrival (max = flush buffer high-water mark)",
                                         16, 16)) {}

void ReorderUnitCore::fail(const std::string& what) const {
  throw InvariantError("dab reorder unit of sub-partition " + std::to_string(partition_) + ": " +
                       what);
}

ReorderUnitCore::Epoch& ReorderUnitCore::epoch_for(uint64_t epoch, const char* what) {
  if (auto it = open_.find(epoch); it != open_.end()) return it->second;
  if (epoch < next_epoch_)
    fail(std::string(what) + " for epoch " + std::to_string(epoch) + ", which is complete" +
         (epoch == 0 ? " (epochs start at 1)" : ""));
  if (epoch > next_epoch_)
    fail(std::string(what) + " for epoch " + std::to_string(epoch) + " skips epoch " +
         std::to_string(next_epoch_));
  if (!open_.empty() && !allow_overlap_)
    fail(std::string(what) + " opens epoch " + std::to_string(epoch) + " before epoch " +
         std::to_string(open_.begin()->first) +
         " completed: flushes may not overlap (only dab.allow_overlap allows it)");
  Epoch& e = open_[epoch];
  ++next_epoch_;
  e.cluster_seen.assign(clusters_, false);
  e.known.assign(sms_, false);
  e.expected.assign(sms_, 0);
  e.seen.resize(sms_);
  if (reorder_) e.parked.resize(sms_);
  return e;
}

void ReorderUnitCore::preflush(uint64_t epoch, uint32_t cluster, std::span<const uint32_t> counts) {
  if (cluster >= clusters_)
    fail("pre-flush from cluster " + std::to_string(cluster) + " of " + std::to_string(clusters_));
  if (counts.size() != sms_per_cluster_)
    fail("pre-flush from cluster " + std::to_string(cluster) + " has " +
         std::to_string(counts.size()) + " counts for " + std::to_string(sms_per_cluster_) +
         " SMs");
  Epoch& e = epoch_for(epoch, "pre-flush");
  if (e.cluster_seen[cluster])
    fail("second pre-flush from cluster " + std::to_string(cluster) + " in epoch " +
         std::to_string(epoch));
  e.cluster_seen[cluster] = true;
  ++e.preflushes;
  ++preflush_messages_;
  for (uint32_t i = 0; i < sms_per_cluster_; ++i) {
    const uint32_t sm = cluster * sms_per_cluster_ + i;
    // Packets may overtake their pre-flush message (P11): check the early ones now.
    if (!e.seen[sm].empty() && *e.seen[sm].rbegin() >= counts[i])
      fail("packet " + id(epoch, sm, *e.seen[sm].rbegin()) + " beyond the " +
           std::to_string(counts[i]) + " its SM announced");
    e.known[sm] = true;
    e.expected[sm] = counts[i];
    e.expected_total += counts[i];
    e.max_expected = std::max(e.max_expected, counts[i]);
  }
  if (reorder_ && all_preflushes(e)) start_cursor(e);
  maybe_close(epoch);
}

void ReorderUnitCore::arrive(FlushPacket p) {
  if (p.partition != partition_)
    fail("packet " + id(p.epoch, p.sm, p.seq) + " for sub-partition " +
         std::to_string(p.partition));
  if (p.sm >= sms_) fail("packet " + id(p.epoch, p.sm, p.seq) + " from an SM out of range");
  if (p.ops.empty()) fail("packet " + id(p.epoch, p.sm, p.seq) + " carries no op");
  Epoch& e = epoch_for(p.epoch, "packet");
  if (e.known[p.sm] && p.seq >= e.expected[p.sm])
    fail("packet " + id(p.epoch, p.sm, p.seq) + " beyond the " + std::to_string(e.expected[p.sm]) +
         " its SM announced");
  if (!e.seen[p.sm].insert(p.seq).second) fail("packet " + id(p.epoch, p.sm, p.seq) + " repeated");
  ++packets_received_;
  if (!reorder_) {
    arrival_queue_.push_back(std::move(p));
    return;
  }
  const bool in_turn = all_preflushes(e) && !e.cursor_done && e.sm == p.sm && e.k == p.seq;
  if (!in_turn) ++out_of_order_;
  e.parked[p.sm].emplace(p.seq, std::move(p));
  ++parked_;
  parked_at_arrival_.sample(parked_ - (in_turn ? 1 : 0));
}

std::optional<FlushPacket> ReorderUnitCore::next() {
  std::optional<FlushPacket> out;
  if (!reorder_) {
    if (arrival_queue_.empty()) return out;
    out = std::move(arrival_queue_.front());
    arrival_queue_.pop_front();
  } else {
    if (open_.empty()) return out;
    Epoch& e = open_.begin()->second; // the only open epoch (no overlap)
    if (!all_preflushes(e) || e.cursor_done) return out;
    auto& q = e.parked[e.sm];
    auto it = q.find(e.k);
    if (it == q.end()) return out; // its turn, not yet here: later ones wait
    out = std::move(it->second);
    q.erase(it);
    --parked_;
    advance_cursor(e);
  }
  Epoch& e = open_.at(out->epoch);
  ++e.released;
  ++packets_released_;
  ops_released_ += out->ops.size();
  maybe_close(out->epoch);
  return out;
}

void ReorderUnitCore::start_cursor(Epoch& e) {
  e.k = 0;
  e.sm = 0;
  e.cursor_done = e.max_expected == 0;
  if (!e.cursor_done && e.expected[0] == 0) advance_cursor(e);
}

// Next (k, sm) in round-robin order with k < expected[sm]: SMs that have
// sent all their packets are skipped (§3.5.2: "SMs with less messages are
// eventually skipped"), by count, so the order never depends on arrivals.
// Source-major order instead walks SM 0's packets 0, 1, ..., then SM 1's.
void ReorderUnitCore::advance_cursor(Epoch& e) {
  if (source_major_) {
    if (e.expected[e.sm] > e.k + 1) {
      ++e.k;
      return;
    }
    e.k = 0;
    do {
      if (++e.sm == sms_) {
        e.cursor_done = true;
        return;
      }
    } while (e.expected[e.sm] == 0);
    return;
  }
  do {
    if (++e.sm == sms_) {
      e.sm = 0;
      if (++e.k >= e.max_expected) {
        e.cursor_done = true;
        return;
      }
    }
  } while (e.expected[e.sm] <= e.k);
}

void ReorderUnitCore::maybe_close(uint64_t epoch) {
  auto it = open_.find(epoch);
  if (it == open_.end() || !all_preflushes(it->second) ||
      it->second.released != it->second.expected_total)
    return;
  open_.erase(it);
  ++epochs_completed_;
}

bool ReorderUnitCore::epoch_complete(uint64_t epoch) const {
  return epoch >= 1 && epoch < next_epoch_ && !open_.contains(epoch);
}

std::optional<std::pair<uint32_t, uint32_t>> ReorderUnitCore::awaited() const {
  if (!reorder_ || open_.empty()) return std::nullopt;
  const Epoch& e = open_.begin()->second;
  if (!all_preflushes(e) || e.cursor_done) return std::nullopt;
  return std::pair{e.sm, e.k};
}

size_t ReorderUnitCore::waiting() const {
  return reorder_ ? parked_ : arrival_queue_.size();
}

} // namespace tlmgpu
