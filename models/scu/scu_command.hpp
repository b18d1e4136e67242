// One SCU operation as the host programs it (seed-003 §2.2, §8.2): the five
// compactions over vectors in device memory. Elements are `elem_bytes`
// wide; masks are one 32-bit flag per element (nonzero = keep); indexes and
// counts are 32-bit.
#pragma once

#include <cstdint>
#include <string>

namespace tlmgpu {

using Addr = uint64_t;

enum class ScuOp : uint8_t {
  Bitmask,         // mask[i] = cmp(data[i], ref)
  Data,            // out = data[i] for i with mask[i]
  Access,          // out = data[index[i]] for i with mask[i]
  Replication,     // out = data[i] repeated count[i] times (mask optional)
  AccessExpansion, // out = data[index[i] .. index[i] + count[i]) (mask optional): CSR expansion
};
enum class ScuCmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
// Inline filtering by the Filtering/Grouping unit (seed-003 §2.4, §2.5):
// Unique drops an output element whose 4-byte value is already in the hash
// table (a duplicate, or a vertex seen by an earlier operation on the same
// table) and inserts it otherwise.
enum class ScuFilter : uint8_t { None, Unique };

// An in-memory hash table of the filter: `sets` sets of `ways` 4-byte
// entries (0xffffffff = empty) from `base`, each set within one line; the
// host allocates it and fills it with 0xff. Set of x: (x * 2654435761) mod sets.
struct ScuHash {
  Addr base = 0;
  uint32_t sets = 0, ways = 16;
  uint32_t set_of(uint32_t x) const { return uint32_t((uint64_t(x) * 2654435761u) % sets); }
  Addr set_addr(uint32_t set) const { return base + uint64_t(set) * ways * 4; }
  uint64_t bytes() const { return uint64_t(sets) * ways * 4; }
};

struct ScuCommand {
  ScuOp op = ScuOp::Data;
  ScuCmp cmp = ScuCmp::Eq;
  uint32_t elem_bytes = 4; // 4 or 8
  uint64_t n = 0;          // input elements (vector length)
  Addr data = 0, mask = 0, index = 0,
       count = 0; // mask 0 = all valid (Replication, AccessExpansion)
  Addr out = 0;
  uint64_t ref = 0;          // Bitmask: the reference value
  uint64_t out_capacity = 0; // elements `out` may hold (checked: no silent overrun)
  ScuFilter filter = ScuFilter::None;
  ScuHash hash; // filter != None

  // Empty, or what is wrong (one line, names the field).
  std::string problem() const;
  const char* name() const;
};

} // namespace tlmgpu
