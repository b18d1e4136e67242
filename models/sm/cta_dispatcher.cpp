#include "models/sm/cta_dispatcher.hpp"

#include <stdexcept>
#include <string>

namespace tlmgpu {

CtaDispatcher::CtaDispatcher(uint32_t num_ctas, uint32_t num_sms, uint32_t ctas_per_sm,
                             bool deterministic, JitterStream* pick, uint32_t groups)
    : num_ctas_(num_ctas), num_sms_(num_sms), ctas_per_sm_(ctas_per_sm),
      groups_(groups ? groups : num_sms), deterministic_(deterministic),
      pick_(deterministic || !pick || !pick->on() ? nullptr : pick),
      last_sm_(num_sms ? num_sms - 1 : 0), running_(num_sms, 0), started_(num_sms, 0) {
  if (num_sms == 0 || ctas_per_sm == 0)
    throw std::invalid_argument("CTA dispatcher needs at least one SM and one CTA slot per SM (" +
                                std::to_string(num_sms) + " SMs, " + std::to_string(ctas_per_sm) +
                                " slots)");
}

uint64_t CtaDispatcher::next_of(uint32_t s) const {
  if (s >= groups_) return num_ctas_;
  // The k-th CTA of SM s: round k / hosted over its hosted groups s, s + num_sms, ...
  const uint64_t hosted = (groups_ - s + num_sms_ - 1) / num_sms_, k = started_[s];
  return (k / hosted) * groups_ + s + (k % hosted) * num_sms_;
}

std::optional<std::pair<uint32_t, uint32_t>> CtaDispatcher::next() {
  if (all_dispatched()) return std::nullopt;
  std::optional<uint32_t> sm;
  if (deterministic_) {
    // Each SM takes its own CTAs ((i % groups) % num_sms == sm) in order as its slots
    // free, independently of the others: a full SM never holds back another
    // SM's next CTA (DAB's batches wait for CTAs of their own SM only).
    for (uint32_t i = 1; i <= num_sms_ && !sm; ++i) {
      const uint32_t s = (last_sm_ + i) % num_sms_;
      if (running_[s] < ctas_per_sm_ && next_of(s) < num_ctas_) sm = s;
    }
    if (!sm) return std::nullopt;
    const uint32_t cta = next_of(*sm);
    ++started_[*sm];
    ++running_[*sm];
    ++running_total_;
    ++next_cta_;
    last_sm_ = *sm;
    return std::pair{cta, *sm};
  } else if (pick_) {
    uint32_t free = 0;
    for (uint32_t s = 0; s < num_sms_; ++s)
      free += running_[s] < ctas_per_sm_;
    uint32_t k = free > 1 ? uint32_t(pick_->below(free)) : 0; // a draw only for a real choice
    for (uint32_t s = 0; s < num_sms_ && !sm; ++s)
      if (running_[s] < ctas_per_sm_ && k-- == 0) sm = s;
  } else {
    for (uint32_t i = 1; i <= num_sms_ && !sm; ++i) {
      const uint32_t s = (last_sm_ + i) % num_sms_;
      if (running_[s] < ctas_per_sm_) sm = s;
    }
  }
  if (!sm) return std::nullopt;
  ++running_[*sm];
  ++running_total_;
  last_sm_ = *sm;
  return std::pair{next_cta_++, *sm};
}

void CtaDispatcher::retire(uint32_t sm) {
  if (sm >= num_sms_ || running_[sm] == 0)
    throw std::logic_error("CTA dispatcher: retire on SM " + std::to_string(sm) +
                           ", which runs no CTA");
  --running_[sm];
  --running_total_;
}

} // namespace tlmgpu
