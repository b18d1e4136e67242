// Places the CTAs of one kernel launch on SMs, as slots free up.
//
// Dynamic (default): the next CTA goes to the first SM with a free CTA slot,
// searching round robin from the SM after the last one that got a CTA, so
// placement depends on which SMs finish first (timing), as on real GPUs.
// Deterministic (DAB, seed-001 3.4.5): CTA i goes only to SM i % num_sms, and
// each SM takes its CTAs in ascending order as its slots free; placement then
// never depends on timing (the order of dispatches across SMs may). With
// `groups` (sm.cta_groups) CTA i belongs to group g = i % groups, which lives
// on SM g % num_sms: an SM hosts groups s, s + num_sms, ... (none if s >=
// groups), and takes their CTAs in ascending order too.
// Injected (jitter.cta_order, dynamic only): the next CTA goes to an SM drawn
// from `pick` among those with a free slot, standing in for the hardware
// dispatcher state a simulator does not model; deterministic mode never draws.
#pragma once

#include "tlmgpu/jitter.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tlmgpu {

class CtaDispatcher {
public:
  // One dispatcher per launch: ctas_per_sm comes from occupancy() of this
  // kernel. Throws std::invalid_argument for zero SMs or zero slots. `pick`
  // (may be null) outlives the dispatcher: its stream runs across launches.
  // `groups` 0 means num_sms (deterministic mode only).
  CtaDispatcher(uint32_t num_ctas, uint32_t num_sms, uint32_t ctas_per_sm, bool deterministic,
                JitterStream* pick = nullptr, uint32_t groups = 0);

  // The next (cta, sm) to start, or nothing if every CTA is out or no slot
  // it may use is free. Call repeatedly until it returns nothing.
  std::optional<std::pair<uint32_t, uint32_t>> next();
  // A CTA on `sm` finished; throws std::logic_error if none was running there.
  void retire(uint32_t sm);

  bool all_dispatched() const { return next_cta_ == num_ctas_; }
  bool all_done() const { return all_dispatched() && running_total_ == 0; }
  uint32_t num_ctas() const { return num_ctas_; }
  uint32_t dispatched() const { return next_cta_; } // how many CTAs went out
  uint32_t resident(uint32_t sm) const { return running_.at(sm); }
  bool deterministic() const { return deterministic_; }

private:
  uint32_t num_ctas_, num_sms_, ctas_per_sm_, groups_;
  bool deterministic_;
  JitterStream* pick_;
  uint32_t next_cta_ = 0, running_total_ = 0;
  uint32_t last_sm_; // SM that got the previous CTA (round-robin start point)
  std::vector<uint32_t> running_;
  std::vector<uint32_t> started_; // deterministic: CTAs each SM took so far
  // deterministic: SM s's next CTA (s, s + num_sms, ... with one group per SM;
  // num_ctas_ or more when none is left)
  uint64_t next_of(uint32_t s) const;
};

} // namespace tlmgpu
