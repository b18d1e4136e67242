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
// Filtering by the Filtering/Grouping unit (seed-003 §2.4, §2.5):
// Unique drops an output element whose 4-byte value is already in the hash
// table (a duplicate, or a vertex seen by an earlier operation on the same
// table) and inserts it otherwise (BFS). BestCost (SSSP) keys the value with
// a cost (`cost`, `cost_add`): it drops the element unless the table holds
// no cost for it or a higher one, and stores the lower cost. Sum (the
// ISCU's filtering as a reduction, PageRank, notes P16): equal values are
// merged into one element whose float weight (the u32 cost_add[i] of the
// input element, as float bits) is the sum of theirs; only in the IRU
// partitions (scu.filter_unit = iru), the sums written to cost_out.
enum class ScuFilter : uint8_t { None, Unique, BestCost, Sum };

// An in-memory hash table of the filter: `sets` sets of `ways` entries of
// `entry_bytes` (4: the ID; 8: ID then best cost; ID 0xffffffff = empty)
// from `base`, each set within one line; the host allocates it and fills it
// with 0xff. Set of x: (x * 2654435761) mod sets.
struct ScuHash {
  Addr base = 0;
  uint32_t sets = 0, ways = 16, entry_bytes = 4;
  uint32_t set_of(uint32_t x) const { return uint32_t((uint64_t(x) * 2654435761u) % sets); }
  uint32_t set_bytes() const { return ways * entry_bytes; }
  Addr set_addr(uint32_t set) const { return base + uint64_t(set) * set_bytes(); }
  uint64_t bytes() const { return uint64_t(sets) * set_bytes(); }
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
  // BestCost: the cost of the element at data + k * elem_bytes is the u32
  // at cost + 4k (the same position: SSSP's edge weights), plus, if set, the
  // u32 cost_add[i] of the input element i that produced it (the source
  // vertex's distance), saturating at 0xfffffffe.
  Addr cost = 0, cost_add = 0;
  // Generate mode (seed-003 §2.2 "two-step use"): instead of the elements,
  // `out` gets one u32 flag per element of the unfiltered output (1 = the
  // filter keeps it), for later operations to apply.
  bool generate = false;
  // The ISCU's unique filter with iru.filter_residue (notes P20): forget the
  // IDs earlier operations remembered (the first expansion of a traversal),
  // as a host clears the in-memory table of scu.filter_unit = hash.
  bool fresh = false;
  // The ISCU's best-cost filter (scu.filter_unit = iru) [A]: the survivors'
  // costs (the lowest of the merged copies), one u32 per element of `out`,
  // written here (the thesis' filter vector would need the positions back;
  // the IRU hands out (ID, cost) pairs, as notes P16 for PageRank).
  Addr cost_out = 0;
  // Apply a generated filter vector: element k of the unfiltered output is
  // dropped when the u32 at apply + 4k is 0 (several arrays, one filter).
  Addr apply = 0;
  // Grouping (seed-003 §2.6, two-step use): generate with `group` set
  // writes to `out` the gather list of the unfiltered output (order[k] =
  // the position of the k-th element to write), elements whose targets
  // share a line of `group_target` (u32 per element: target of value x at
  // group_target + 4x) placed together; `hash` is the grouping table
  // (entry_bytes >= 8, see scu_group.hpp), left empty at the end.
  bool group = false;
  Addr group_target = 0;
  // Apply a gather list: the unfiltered output written in the order the
  // u32s at order + 4k give. With `apply` too, position order[k] is dropped
  // when its flag is 0 (notes P12: filter and group vectors from separate
  // operations, the output stays dense).
  Addr order = 0;

  // Empty, or what is wrong (one line, names the field).
  std::string problem() const;
  const char* name() const;
};

} // namespace tlmgpu
