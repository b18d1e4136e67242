#include "models/scu/scu_group.hpp"

#include <cstring>

namespace tlmgpu {
namespace {
constexpr uint32_t kEmpty = 0xffffffffu;

uint32_t word(const uint8_t* e, uint32_t i) {
  uint32_t v;
  std::memcpy(&v, e + 4 * i, 4);
  return v;
}
void set_word(uint8_t* e, uint32_t i, uint32_t v) {
  std::memcpy(e + 4 * i, &v, 4);
}

// Appends the entry's positions to `emit` and frees it.
void emit_entry(uint8_t* e, uint32_t slots, std::vector<uint32_t>& emit) {
  for (uint32_t s = 1; s <= slots; ++s)
    if (uint32_t p = word(e, s); p != kEmpty) emit.push_back(p);
  std::memset(e, 0xff, 4 * (slots + 1));
}
} // namespace

void scu_group_insert(uint32_t block, uint32_t pos, uint8_t* set, uint32_t ways,
                      uint32_t entry_bytes, uint8_t* victim, std::vector<uint32_t>& emit) {
  const uint32_t slots = entry_bytes / 4 - 1;
  int hit = -1, empty = -1;
  for (uint32_t w = 0; w < ways && hit < 0; ++w) {
    const uint32_t tag = word(set + w * entry_bytes, 0);
    if (tag == block) hit = int(w);
    if (tag == kEmpty && empty < 0) empty = int(w);
  }
  if (hit < 0) {
    if (empty >= 0) {
      hit = empty;
    } else { // the set is full of other blocks: the victim's group leaves
      hit = *victim;
      *victim = uint8_t((*victim + 1) % ways);
      emit_entry(set + hit * entry_bytes, slots, emit);
    }
    set_word(set + hit * entry_bytes, 0, block);
  }
  uint8_t* e = set + hit * entry_bytes;
  uint32_t s = 1;
  while (word(e, s) != kEmpty)
    ++s;
  set_word(e, s, pos);
  if (s == slots) emit_entry(e, slots, emit);
}

bool scu_group_flush(uint8_t* set, uint32_t ways, uint32_t entry_bytes,
                     std::vector<uint32_t>& emit) {
  const size_t before = emit.size();
  bool held = false;
  for (uint32_t w = 0; w < ways; ++w) {
    uint8_t* e = set + w * entry_bytes;
    if (word(e, 0) == kEmpty) continue;
    held = true;
    emit_entry(e, entry_bytes / 4 - 1, emit);
  }
  return held || emit.size() != before;
}

} // namespace tlmgpu
