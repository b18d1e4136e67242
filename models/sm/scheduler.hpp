// Warp scheduler policies. A policy is pure choice: each cycle the SM shows it
// the warps of one scheduler (WarpView) and issues the one it picks, then
// tells it with issued(). Policies keep their own state (last issued warp,
// tokens, rounds), so DAB's SRR/GTRR/GTAR/GWAT (seed-001 3.4) fit the same
// interface: they need to know which warps are ready and whether a warp's next
// instruction is an atomic or an exit, which WarpView carries.
#pragma once

#include "tlmgpu/simt/warp_instr.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

namespace tlmgpu {

struct WarpView {
  uint32_t slot = 0;  // hardware warp slot on the SM; stable while the warp lives
  bool valid = false; // a warp occupies the slot
  bool ready = false; // its next instruction can issue this cycle
  uint64_t age = 0;   // dispatch order, smaller = older
  WarpInstr::Kind next = WarpInstr::Kind::Exit;
};

class SchedulerPolicy {
public:
  virtual ~SchedulerPolicy() = default;
  // The slot to issue from, or nothing (no ready warp, or the policy holds
  // back on purpose, as SRR does). `warps` may be in any order; the SM lists
  // only valid, ready warps and does not call with none.
  virtual std::optional<uint32_t> pick(std::span<const WarpView> warps) = 0;
  // The SM issued from `slot` (it may not issue a pick, e.g. on a structural stall).
  virtual void issued(uint32_t slot) { (void)slot; }
  virtual const char* name() const = 0;
  // A slot that pick() would choose whenever it is ready, whatever else is
  // (GTO's greedy warp), or nothing. The SM then tests that one warp instead
  // of listing them all: most cycles a greedy policy re-issues its warp.
  virtual std::optional<uint32_t> sticky() const { return std::nullopt; }
};

// Loose round robin: the first ready warp after the last issued slot, in slot
// order, wrapping around.
class LrrPolicy : public SchedulerPolicy {
public:
  std::optional<uint32_t> pick(std::span<const WarpView> warps) override;
  void issued(uint32_t slot) override { last_ = slot; }
  const char* name() const override { return "lrr"; }

private:
  std::optional<uint32_t> last_;
};

// Greedy then oldest: keep issuing from the last issued slot while it is
// ready, else the oldest ready warp (GPGPU-Sim's GTO; like GPGPU-Sim the
// greedy choice follows the slot, so a new warp in that slot inherits it).
//
// `max_run` (0: none) bounds the greedy run: after that many issues in a row
// from one slot, the oldest other ready warp goes next. The SM sets it in
// functional mode only, where nothing ever stalls a warp: a warp spinning on
// a flag that another warp of its scheduler sets would otherwise issue
// forever (timed modes switch at the spin's memory latency, as GPUs do).
class GtoPolicy : public SchedulerPolicy {
public:
  explicit GtoPolicy(uint32_t max_run = 0) : max_run_(max_run) {}
  std::optional<uint32_t> pick(std::span<const WarpView> warps) override;
  void issued(uint32_t slot) override {
    run_ = last_ == slot ? run_ + 1 : 1;
    last_ = slot;
  }
  const char* name() const override { return "gto"; }
  std::optional<uint32_t> sticky() const override { return yields() ? std::nullopt : last_; }

private:
  bool yields() const { return max_run_ != 0 && run_ >= max_run_; }
  std::optional<uint32_t> last_;
  uint32_t max_run_ = 0, run_ = 0;
};

// "lrr" or "gto" (sm.scheduler); throws std::invalid_argument naming the
// options. `gto_max_run`: GtoPolicy's bound on a greedy run (0: none).
std::unique_ptr<SchedulerPolicy> make_scheduler(std::string_view name, uint32_t gto_max_run = 0);

} // namespace tlmgpu
