#include "models/sm/atomic_profile.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace tlmgpu {

AtomicProfile::AtomicProfile(StatGroup& parent, uint32_t line_bytes)
    : line_bytes_(line_bytes), stats_(parent, "atomics"),
      lanes_(stats_.counter("lane_ops", "ops", "active lanes of global atomic/red instructions")),
      unique_words_(stats_.counter("unique_words", "words",
                                   "distinct 4-byte words touched by atomics (per kernel)")),
      unique_lines_(stats_.counter("unique_lines", "lines",
                                   "distinct lines touched by atomics (per kernel)")),
      collisions_(
          stats_.counter("warp_collisions", "lanes",
                         "lanes whose word another lane of the same instruction also hits")),
      reuses_(stats_.counter("line_reuses", "touches", "atomic line touches that reuse a line")),
      cold_(stats_.counter("line_first_touches", "touches",
                           "first atomic touch of a line in the kernel")),
      reuse_log2_(
          stats_.histogram("reuse_distance_log2", "log2(lines)",
                           "distinct atomic lines between two touches of a line: bucket b holds "
                           "distances in [2^b - 1, 2^(b+1) - 1)",
                           1, 24)) {
  static constexpr const char* names[] = {"add", "sub", "min", "max",  "inc", "dec",
                                          "and", "or",  "xor", "exch", "cas"};
  for (size_t i = 0; i < by_op_.size(); ++i)
    by_op_[i] = &stats_.counter(std::string("op_") + names[i], "instructions",
                                "atomic/red instructions with this op");
  bit_.assign(1024, 0);
}

void AtomicProfile::record(const WarpInstr& in) {
  ++*by_op_[size_t(in.op)];
  // The active lanes' words, sorted: runs of equal words are collisions and
  // lines come in address order (deterministic). On the stack: this runs for
  // every atomic instruction.
  std::array<uint64_t, kMaxLanes> words;
  unsigned n_words = 0;
  in.mask.for_each([&](unsigned l) { words[n_words++] = in.addr[l] / 4; });
  lanes_ += n_words;
  std::sort(words.begin(), words.begin() + n_words);
  uint64_t last_line = ~0ull;
  for (unsigned i = 0; i < n_words;) {
    const uint64_t word = words[i];
    unsigned n = 1;
    while (i + n < n_words && words[i + n] == word)
      ++n;
    i += n;
    if (words_.insert(word).second) ++unique_words_;
    if (n > 1) collisions_ += n;
    const uint64_t line = word * 4 / line_bytes_;
    if (line == last_line) continue; // one touch per line per instruction
    last_line = line;
    const uint64_t d = stack_distance(line);
    if (d == ~0ull) {
      ++cold_;
      ++unique_lines_;
    } else {
      ++reuses_;
      reuse_log2_.sample(std::bit_width(d + 1) - 1);
    }
  }
}

// Distinct lines touched since this line's previous touch (~0 if none).
uint64_t AtomicProfile::stack_distance(uint64_t line) {
  if (now_ >= bit_.size()) grow();
  uint64_t d = ~0ull;
  auto it = lines_.find(line);
  if (it != lines_.end()) {
    d = uint64_t(bit_sum(now_ - 1) - bit_sum(it->second));
    bit_add(it->second, -1);
    it->second = now_;
  } else {
    lines_.emplace(line, now_);
  }
  bit_add(now_, 1);
  ++now_;
  return d;
}

void AtomicProfile::bit_add(size_t i, int v) {
  for (++i; i <= bit_.size(); i += i & (~i + 1))
    bit_[i - 1] += v;
}
int AtomicProfile::bit_sum(size_t i) const {
  int s = 0;
  for (++i; i > 0; i -= i & (~i + 1))
    s += bit_[i - 1];
  return s;
}

// Out of time slots: renumber the live lines 0..n-1 in touch order.
void AtomicProfile::grow() {
  std::vector<std::pair<size_t, uint64_t>> order;
  for (const auto& [line, t] : lines_)
    order.push_back({t, line});
  std::sort(order.begin(), order.end());
  bit_.assign(std::max<size_t>(1024, order.size() * 4), 0);
  for (size_t i = 0; i < order.size(); ++i) {
    lines_[order[i].second] = i;
    bit_add(i, 1);
  }
  now_ = order.size();
}

void AtomicProfile::end_kernel() {
  words_.clear();
  lines_.clear();
  bit_.assign(1024, 0);
  now_ = 0;
}

} // namespace tlmgpu
