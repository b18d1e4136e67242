// `--check-races`: heterogeneous-race detection in the HRF sense (issue 15
// item 5). Two accesses to the same word race when they come from different
// warps, at least one writes, they are not both atomics whose scopes each
// cover the other warp, and no chain of program order, barriers and
// release/acquire pairs at a scope covering both orders them. A
// remote-scope-promoted operation covers every CTA, on either side. Such a program
// is a silent bug on real hardware: its loads may see stale data (the scoped
// L1 of models/l1 makes them do so).
//
// A probe (InstrProbe) on every SM's issue stage, kernel-free. Happens-before
// is tracked with vector clocks per warp (a warp's lanes execute together,
// so a warp is one thread of the analysis); every word touched keeps its
// last write and the reads since. Synchronisation:
//   release  (store/atomic/red with release order, or a strong write after a
//            release fence): the warp's clock is published on the word, tagged
//            with its CTA and scope; the warp's clock then advances;
//   acquire  (load/atomic with acquire order, or an acquire fence after
//            strong reads of the word): joins what was published on the word by
//            releases whose scope and the acquire's both cover both warps;
//            a remote-scope-promoted operation covers every CTA;
//   barrier  joins the clocks of the CTA's warps;
//   kernel   boundaries order everything (the state is reset per kernel).
// An acquire joins every earlier compatible release of the word (not only
// the one it read from), which can hide a race, never invent one. The order
// of events is the SMs' issue order, which is the order memory is accessed
// in functional and lt; at is refused (a load issued before a release may
// still read its value there). Shared memory is not checked.
#pragma once

#include "tlmgpu/simt/instr_probe.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

class RaceChecker : public InstrProbe {
public:
  // One side of a race: who accessed the word, with what.
  struct Access {
    uint64_t warp = 0, cta = 0;
    uint8_t lane = 0;
    WarpInstr::Kind kind = WarpInstr::Kind::Load;
    MemOrder order = MemOrder::Relaxed;
    Scope scope = Scope::Device;
    bool remote = false;
  };
  struct Race {
    std::string kernel;
    Addr addr = 0; // the word (4-byte aligned)
    Access earlier, later;
  };

  // keep: how many races to describe (all are counted).
  explicit RaceChecker(size_t keep = 100) : keep_(keep) {}

  void kernel_begin(const std::string& name) override;
  void issued(uint16_t sm, const WarpInstr& in, Cycle now) override;

  // Words with a race, one per word and kernel (the first pair found).
  uint64_t count() const { return count_; }
  const std::vector<Race>& races() const { return races_; }
  static std::string describe(const Race& r);

private:
  using VectorClock = std::map<uint64_t, uint32_t>; // warp -> clock; absent = 0
  struct Epoch {
    uint64_t warp = 0;
    uint32_t clock = 0;
    Access who;
  };
  struct Shadow {
    bool written = false;
    Epoch write;
    std::vector<Epoch> reads; // since the last write, one per warp, at most kMaxReads
  };
  // What releases published on a word: per releasing CTA, device-scope and
  // CTA-scope releases apart; remote releases reach every CTA.
  struct SyncVar {
    std::map<uint64_t, VectorClock> device, cta;
    VectorClock remote;
  };
  struct WarpState {
    uint64_t cta = 0;
    uint32_t clock = 1;
    VectorClock vc;
    int64_t barrier = -1;       // a barrier generation to join at the next event
    uint64_t next_barrier = 0;  // this warp's next barrier generation
    bool fence_release = false; // a release fence waits for a strong write
    Scope fence_scope = Scope::Device;
    VectorClock fence_clock;        // the clock at that fence
    std::vector<Addr> strong_reads; // words read by strong reads since the last fence
  };

  static constexpr size_t kMaxReads = 8;

  WarpState& warp(const WarpInstr& in);
  VectorClock snapshot(uint64_t w, const WarpState& s) const;
  static void join(VectorClock& into, const VectorClock& from);
  bool ordered(const Epoch& e, uint64_t w, const WarpState& s) const;
  static bool covers(const Access& a, uint64_t other_cta);
  static bool both_atomic_in_scope(const Access& a, const Access& b);
  void publish(Addr word, const WarpState& s, const VectorClock& clock, Scope scope, bool remote);
  void acquire(Addr word, WarpState& s, Scope scope, bool remote);
  void access(Addr word, uint64_t w, WarpState& s, const Access& who, bool writes);
  void report(Addr word, const Access& earlier, const Access& later);

  size_t keep_;
  std::string kernel_;
  uint64_t count_ = 0;
  std::vector<Race> races_;
  std::unordered_map<uint64_t, WarpState> warps_;
  std::unordered_map<Addr, Shadow> shadow_;
  std::unordered_map<Addr, SyncVar> sync_;
  std::map<std::pair<uint64_t, uint64_t>, VectorClock> barriers_; // (cta, generation)
  std::set<Addr> reported_;
  std::vector<Addr> words_; // issued()'s scratch: the words one instruction touches
};

} // namespace tlmgpu
