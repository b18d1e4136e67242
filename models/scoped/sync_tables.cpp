#include "models/scoped/sync_tables.hpp"

#include <stdexcept>
#include <string>

namespace tlmgpu::scoped {

uint64_t SFifo::push(Addr line) {
  if (full()) throw std::logic_error("sFIFO push while full: pop the head first");
  q_.push_back({line, next_seq_});
  ++count_[line];
  return next_seq_++;
}

SFifo::Entry SFifo::pop() {
  if (q_.empty()) throw std::logic_error("sFIFO pop while empty");
  Entry e = q_.front();
  q_.pop_front();
  auto it = count_.find(e.line);
  if (--it->second == 0) count_.erase(it);
  return e;
}

void LrTable::upsert(Addr key, uint64_t seq) {
  auto it = by_key_.find(key);
  if (it != by_key_.end()) {
    by_seq_.erase(it->second);
    it->second = seq;
  } else {
    // Every entry points at a distinct live sFIFO entry and the table is as
    // large as the sFIFO, so it cannot be full here unless entries leaked.
    if (by_key_.size() >= capacity_)
      throw std::logic_error("LR-TBL full: an entry outlived its sFIFO entry");
    by_key_.emplace(key, seq);
  }
  by_seq_[seq] = key;
}

std::optional<uint64_t> LrTable::lookup(Addr key) const {
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return std::nullopt;
  return it->second;
}

void LrTable::forget(uint64_t seq) {
  auto it = by_seq_.find(seq);
  if (it == by_seq_.end()) return;
  by_key_.erase(it->second);
  by_seq_.erase(it);
}

bool PaTable::insert(Addr key) {
  if (keys_.count(key)) return true;
  if (full()) return false;
  keys_.insert(key);
  return true;
}

bool L2LineLock::request(Addr line, uint32_t who) {
  auto it = holders_.find(line);
  if (it == holders_.end()) {
    holders_.emplace(line, who);
    return true;
  }
  if (it->second == who) throw std::logic_error("L2 line lock requested twice by its holder");
  queued_[line].push_back(who);
  return false;
}

bool L2LineLock::holds(Addr line, uint32_t who) const {
  auto it = holders_.find(line);
  return it != holders_.end() && it->second == who;
}

bool L2LineLock::admits(Addr line, uint32_t who) const {
  auto it = holders_.find(line);
  return it == holders_.end() || it->second == who;
}

void L2LineLock::unlock(Addr line, uint32_t who) {
  auto it = holders_.find(line);
  if (it == holders_.end() || it->second != who)
    throw std::logic_error("L2 line unlock by a requester that does not hold line " +
                           std::to_string(line));
  auto q = queued_.find(line);
  if (q == queued_.end() || q->second.empty()) {
    holders_.erase(it);
    if (q != queued_.end()) queued_.erase(q);
    return;
  }
  it->second = q->second.front();
  q->second.pop_front();
}

} // namespace tlmgpu::scoped
