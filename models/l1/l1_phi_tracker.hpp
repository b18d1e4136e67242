// AT, PHI mode: ordering and completion of what an L1 sends down. Kernel-free;
// see README.md "PHI".
//
// Completion: the packets the L1 sends on its own behalf (partial-update
// reds, write-backs) are tracked until L2 answers them. A fence waits until
// every packet tracked before it has landed (after_current); the kernel end
// waits until none is left (empty).
//
// Ordering (the gate): L2 does not keep one source's requests to a line in
// order once they meet in its MSHR (a store is served ahead of the waiters,
// and a waiter that misses again on replay lets later ones that hit go
// first). Without PHI that never matters, because a warp waits for each
// request; a PHI red, however, leaves without anyone waiting for it. So
// every packet to a line with a red on its way (fill, forwarded store or
// atomic, write-back, another red) is parked until that red is answered,
// then sent in order, up to and including the next red.
#pragma once

#include "tlmgpu/types.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tlmgpu {

class PhiTracker {
public:
  // An own packet (red or write-back) to `line`, before it is admitted.
  void track(const void* packet, Addr line, bool red) {
    packets_[packet] = Entry{next_seq_, line, red};
    seqs_[next_seq_++] = packet;
  }

  // Any packet to `line` about to go down: true = send now; false = parked
  // behind the reds of its line still on their way (released by landed()).
  bool admit(const void* packet, Addr line) {
    auto t = packets_.find(packet);
    const bool red = t != packets_.end() && t->second.red;
    auto it = gates_.find(line);
    if (it != gates_.end() && (it->second.reds_down > 0 || !it->second.parked.empty())) {
      it->second.parked.emplace_back(packet, red);
      ++parked_total_;
      return false;
    }
    if (red) ++gates_[line].reds_down;
    return true;
  }

  // L2 answered `packet`. Returns false if it is not an own packet. Appends
  // the parked packets that may go down now to `go` (in order) and runs the
  // fences this answer completes.
  bool landed(const void* packet, std::vector<const void*>& go) {
    auto it = packets_.find(packet);
    if (it == packets_.end()) return false;
    const Entry e = it->second;
    packets_.erase(it);
    seqs_.erase(e.seq);
    if (e.red) {
      auto g = gates_.find(e.line);
      Gate& gate = g->second;
      if (--gate.reds_down == 0) {
        while (!gate.parked.empty()) {
          auto [p, red] = gate.parked.front();
          gate.parked.pop_front();
          go.push_back(p);
          if (red) {
            ++gate.reds_down;
            break;
          }
        }
      }
      if (gate.reds_down == 0 && gate.parked.empty()) gates_.erase(g);
    }
    const uint64_t oldest = seqs_.empty() ? next_seq_ : seqs_.begin()->first;
    std::vector<std::function<void()>> ready;
    auto w = waiters_.begin();
    for (; w != waiters_.end() && w->first <= oldest; ++w)
      ready.push_back(std::move(w->second));
    waiters_.erase(waiters_.begin(), w);
    for (auto& f : ready)
      f();
    return true;
  }

  // `done` runs once every packet tracked so far has landed (now if none).
  void after_current(std::function<void()> done) {
    if (seqs_.empty()) return done();
    waiters_.emplace_back(next_seq_, std::move(done)); // targets are nondecreasing
  }

  bool empty() const { return packets_.empty(); }
  size_t size() const { return packets_.size(); }
  uint64_t parked_total() const { return parked_total_; }

private:
  struct Entry {
    uint64_t seq;
    Addr line;
    bool red;
  };
  struct Gate {
    uint32_t reds_down = 0;                          // sent, not answered
    std::deque<std::pair<const void*, bool>> parked; // (packet, is a red)
  };
  uint64_t next_seq_ = 0, parked_total_ = 0;
  std::unordered_map<const void*, Entry> packets_;
  std::map<uint64_t, const void*> seqs_; // oldest first
  std::unordered_map<Addr, Gate> gates_;
  std::vector<std::pair<uint64_t, std::function<void()>>> waiters_;
};

} // namespace tlmgpu
