// The grouping operation of the Filtering/Grouping unit (seed-003 §2.6),
// kernel-free: one probe of a set of the grouping hash table. The module
// (scu_group_module.cpp) reads and writes the set lines through L2; this
// decides what the entries hold and which positions leave the table.
//
// Entry layout [A] (Table 3.3's 32-byte grouping entry): word 0 the block
// tag (0xffffffff = empty), words 1 .. entry_bytes/4 - 1 the output
// positions of the group's elements (0xffffffff = free slot); a 32-byte
// entry holds 7 elements, the tag taking the eighth word (the notes read
// "8 elements plus the tag"; we keep the entry at 32 bytes).
#pragma once

#include <cstdint>
#include <vector>

namespace tlmgpu {

// Element at output position `pos` whose target lies in block `block` goes
// into the set `set` (`ways` entries of `entry_bytes`): appended to the
// entry with that tag; a new tag takes an empty way, or the round-robin
// victim (`*victim` advances), whose positions are appended to `emit` first
// (they leave together: the group stays contiguous in the output). An entry
// that becomes full is emitted and freed.
void scu_group_insert(uint32_t block, uint32_t pos, uint8_t* set, uint32_t ways,
                      uint32_t entry_bytes, uint8_t* victim, std::vector<uint32_t>& emit);

// End of the operation: every entry of the set, way by way, emitted and
// freed. Returns whether the set held any.
bool scu_group_flush(uint8_t* set, uint32_t ways, uint32_t entry_bytes,
                     std::vector<uint32_t>& emit);

} // namespace tlmgpu
