// The logical IRU, kernel-free (style rule 1): every partition's Data
// Processing queue, its hash slice and the Data Replier's rules (seed-003
// §3.3-3.4, thesis §5.2.2). The modules (iru_module.*) move lines, ring
// packets and warp requests and say when; this decides what is inserted,
// merged and replied, and in which cycle an element enters the hash.
//
//   arrive(p, e, at) ──► partition p's queue (classifier FIFOs and ring, by time)
//                          │ advance(now): one insertion per bank per cycle,
//                          ▼ in order; a full set stalls the queue (notes §3.4 step 5)
//                        hash slice p ── merge ALU (equal index: min / add)
//                          │
//   reply(p, lanes, timed_out) ◄── warp request at partition p
//
// Reply rules (thesis §5.2.2; [A] where the notes fill gaps):
//   1. every element handed out or merged away: all lanes inactive;
//   2. a full set at p: that set (the oldest to fill); else a full set of
//      the nearest partition with no request waiting, over the ring [A]
//      (the thesis lets any partition answer a request);
//   3. nothing left outside the hashes (drain), or the request timed out and
//      the hashes hold a reply's worth: the best sets, p's first, then the
//      other partitions' nearest-first over the ring (first-fit decreasing);
//   4. otherwise wait.
// A reply is never short while elements remain anywhere: the kernel runs
// one lane per element, so a short reply would strand elements with no lane
// left to take them. Short replies happen only at the very end, and after
// that every lane is inactive: filtered elements become whole empty warps.
#pragma once

#include "models/iru/iru_hash.hpp"
#include "models/iru/iru_types.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <vector>

namespace tlmgpu {

using Cycle = uint64_t;
constexpr Cycle kIruNever = std::numeric_limits<Cycle>::max();

struct IruGeometry {
  uint32_t partitions = 1, sets = 1024, slots = 32, banks = 2, line_bytes = 128;
  uint32_t residue = 0; // IDs a set remembers after replying them (iru.filter_residue)
};

// What one partition counted (the modules publish these as stats).
struct IruCounts {
  uint64_t arrived = 0, inserted = 0, merged = 0, stalls = 0;
  uint64_t remembered = 0; // of merged: dropped by a set's residue of replied IDs
  uint64_t replies_full = 0, replies_timeout = 0, replies_drain = 0, replies_inactive = 0;
  uint64_t replied = 0, stolen = 0; // elements handed out; of them taken from other partitions
};

class IruCore {
public:
  explicit IruCore(const IruGeometry& g);
  // A new configuration: the hashes and queues start empty.
  void configure(const IruConfig& c, IruMerge merge);
  // A streamed configuration (IruConfig::streamed): `n` more elements are
  // on their way; close() once the last is. While open, neither the drain
  // nor the all-inactive reply happens (rules 1 and 3: more may come).
  void add(uint64_t n) { remaining_ += n; }
  void close() { open_ = false; }
  const IruRouting& routing() const { return routing_; }
  IruMerge merge() const { return merge_; }

  // Element `e` reaches partition p's Data Processing (from its classifier
  // or off the ring) at cycle `at`. `p` must own e's set.
  void arrive(uint32_t p, const IruElement& e, Cycle at);
  // Inserts what is due by `now` (the queues are ordered by arrival cycle).
  void advance(Cycle now);
  // The cycle the next insertion could happen, kIruNever if none is queued
  // or the queue waits for a full set to be replied.
  Cycle next_insert() const;
  // Elements queued at p, not yet inserted (what its classifier holds).
  uint64_t backlog(uint32_t p) const { return parts_[p].queue.size(); }
  // The latest cycle advance() reached: the hashes hold what was inserted
  // by then (lt, functional: requests come in call order, not time order).
  Cycle advanced() const { return advanced_; }

  enum class Kind : uint8_t { Full, Timeout, Drain, Inactive };
  struct Reply {
    Kind kind;
    std::vector<IruElement> elements; // up to `lanes`; the other lanes are inactive
    uint32_t max_hops = 0;            // farthest partition elements were taken from
    uint32_t stolen = 0;              // elements taken from other partitions
    uint32_t blocks = 0;              // distinct memory blocks (the reply's coalescing)
  };
  // A warp request for `lanes` elements at partition p, at cycle `now`
  // (a set taken at `now` lets a stalled queue go on from then). Bit q of
  // `idle`: partition q has no request waiting (its full sets may go).
  std::optional<Reply> reply(uint32_t p, uint32_t lanes, bool timed_out, Cycle now,
                             uint64_t idle = ~0ull);
  // The same request answered without events (lt, functional: every
  // element's arrival is already queued): insertions are played forward
  // from `t` until a rule answers, the timeout at t + timeout. Returns the
  // reply and its cycle; nullopt if nothing queued could ever answer it.
  struct Timed {
    Reply r;
    Cycle at;
  };
  std::optional<Timed> reply_by(uint32_t p, uint32_t lanes, Cycle t, Cycle timeout);

  uint64_t remaining() const { return remaining_; } // neither handed out nor merged away
  uint64_t held() const;                            // in the hash slices
  bool drained() const { return held() == remaining_; }
  const IruCounts& counts(uint32_t p) const { return parts_[p].n; }
  uint64_t conflicts(uint32_t p) const { return parts_[p].hash.conflicts(); }

private:
  struct Queued {
    Cycle at;
    uint64_t seq;
    IruElement e;
    bool operator>(const Queued& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Part {
    IruHashSlice hash;
    std::priority_queue<Queued, std::vector<Queued>, std::greater<Queued>> queue;
    std::vector<Cycle> bank_free;
    Cycle floor = 0;      // no insertion before this (the cycle a stall ended)
    bool stalled = false; // the head's set is full
    IruCounts n;
  };
  // When p's head element can be inserted (kIruNever while stalled).
  Cycle head_time(const Part& q) const;
  uint32_t distinct_blocks(const std::vector<IruElement>& e) const;

  IruGeometry g_;
  IruRouting routing_;
  IruMerge merge_ = IruMerge::None;
  std::vector<Part> parts_;
  uint64_t remaining_ = 0, seq_ = 0;
  Cycle advanced_ = 0;
  bool open_ = false;
};

} // namespace tlmgpu
