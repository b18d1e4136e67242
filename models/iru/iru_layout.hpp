// The controller's view of a configuration (seed-003 §3.3, §3.4 step 2):
// which lines of the index and secondary arrays each partition prefetches
// (only those in its own memory partition, thesis §5.2.2), and where an
// element's two halves meet. Kernel-free.
//
// [A] The thesis does not say how a secondary word is paired with its index
// when the two arrays' lines live in different partitions. Here position i
// is owned by the partition whose memory holds indices[i]: that partition
// reads the index line; the secondary line is read by the partition that
// holds it, which sends the words the ring's way to the index's owner
// (IruPairing holds whichever half comes first).
#pragma once

#include "models/iru/iru_types.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

using Cycle = uint64_t;

class IruLayout {
public:
  // `slice_of(a)`: the L2 slice of address a; partition p holds slices
  // [p * slices_per_partition, (p + 1) * slices_per_partition).
  IruLayout(uint32_t slices_per_partition, uint32_t line_bytes,
            std::function<uint32_t(Addr)> slice_of);

  struct Line {
    Addr addr;
    bool secondary;       // a line of the secondary array (else of indices)
    uint32_t first, last; // the positions it holds: [first, last)
    Addr word0;           // where position `first`'s word is (the next ones follow)
    uint32_t slot;        // which of the partition's memory ports reaches it
  };
  // Partition p's lines of both arrays, in position order (an index line
  // before the secondary line of the same positions). A gather
  // configuration: a line per run of consecutive positions whose words are
  // consecutive within one line (a line two runs share is read twice), from
  // position `from` (a streamed one: the words appended since).
  std::vector<Line> lines(const IruConfig& c, uint32_t p, uint32_t from = 0) const;
  uint32_t partition_of(Addr a) const { return slice_of_(a) / per_; }
  // The partition that pairs position `pos` (holds indices[pos]).
  uint32_t owner(const IruConfig& c, uint32_t pos) const {
    return partition_of(c.indices + 4ull * pos);
  }

private:
  uint32_t per_, line_;
  std::function<uint32_t(Addr)> slice_of_;
};

// Index and secondary words of one position meet here; an element is whole
// once both are in, at the later of their cycles.
class IruPairing {
public:
  struct Whole {
    IruElement e;
    Cycle at;
  };
  std::optional<Whole> index(uint32_t pos, uint32_t idx, Cycle at) { return add(pos, idx, at, 0); }
  std::optional<Whole> secondary(uint32_t pos, uint32_t sec, Cycle at) {
    return add(pos, sec, at, 1);
  }
  size_t waiting() const { return half_.size(); }
  void clear() { half_.clear(); }

private:
  struct Half {
    uint32_t word;
    Cycle at;
    int which;
  };
  std::optional<Whole> add(uint32_t pos, uint32_t word, Cycle at, int which);
  std::unordered_map<uint32_t, Half> half_;
};

} // namespace tlmgpu
