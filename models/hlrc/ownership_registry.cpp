#include "models/hlrc/ownership_registry.hpp"

#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

std::string hex(Addr a) {
  static const char* d = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), d[a & 15]);
    a >>= 4;
  } while (a != 0);
  return "0x" + s;
}

} // namespace

std::optional<uint16_t> OwnershipRegistry::owner(Addr line) const {
  auto it = map_.find(line);
  if (it == map_.end() || !it->second.owned) return std::nullopt;
  return it->second.owner;
}

Cycle OwnershipRegistry::ready(Addr line) const {
  auto it = map_.find(line);
  return it == map_.end() ? 0 : it->second.ready;
}

void OwnershipRegistry::grant(Addr line, uint16_t sm, Cycle owner_ready) {
  Entry& e = map_[line];
  if (e.owned)
    throw std::logic_error("hLRC registry: grant of line " + hex(line) + " to SM " +
                           std::to_string(sm) + " while SM " + std::to_string(e.owner) +
                           " owns it (recall first)");
  e.owned = true;
  e.owner = sm;
  e.ready = owner_ready;
  ++owned_;
}

uint16_t OwnershipRegistry::recall(Addr line, Cycle back) {
  auto it = map_.find(line);
  if (it == map_.end() || !it->second.owned)
    throw std::logic_error("hLRC registry: recall of unowned line " + hex(line));
  it->second.owned = false;
  it->second.ready = back;
  --owned_;
  return it->second.owner;
}

void OwnershipRegistry::release(Addr line, uint16_t sm, Cycle back) {
  auto it = map_.find(line);
  if (it == map_.end() || !it->second.owned || it->second.owner != sm)
    throw std::logic_error("hLRC registry: SM " + std::to_string(sm) + " releases line " +
                           hex(line) + " it does not own");
  it->second.owned = false;
  it->second.ready = back;
  --owned_;
}

void OwnershipRegistry::prune(Cycle now) {
  for (auto it = map_.begin(); it != map_.end();) {
    if (!it->second.owned && it->second.ready <= now)
      it = map_.erase(it);
    else
      ++it;
  }
}

} // namespace tlmgpu
