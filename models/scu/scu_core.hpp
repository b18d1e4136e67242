// The SCU's address generation, coalescing and data path, kernel-free
// (style rule 1). The module (scu_module.*) moves lines; this decides which
// lines, in which order, and what the output bytes are:
//
//   for each chunk of elements whose vectors fit the vector FIFO:
//     1. vector_lines(): the mask/index/count lines of the chunk
//     2. elements(): the data elements, in output order (after the mask)
//     3. data_requests(): those elements as line requests, coalesced
//     4. output(): the produced bytes, appended to the output stream
//
// ScuReference computes the same result straight from a memory image, for
// tests and as the CPU-side check.
#pragma once

#include "models/scu/scu_command.hpp"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

// Reads `n` bytes at `a` of the memory image (the module: lines it fetched).
using ByteReader = std::function<void(Addr a, void* dst, size_t n)>;

// One data element to fetch: its address and how many times it is emitted
// (Replication repeats; everything else 1).
struct ScuElement {
  Addr addr;
  uint32_t repeat;
  uint64_t row = 0; // the input element that produced it (cost_add's index)
};

// A read request the coalescing unit sends: one line, and how many element
// groups it serves (1 + merges).
struct ScuLineRequest {
  Addr line;
  uint32_t groups;
  uint64_t lookup = 0; // the coalescer's lookups before it (one a cycle)
};

// The coalescing unit fed incrementally (a chunk's elements slice by slice,
// as their vector lines arrive): `width` elements a cycle, each distinct
// line of a cycle's group one lookup; a group to a line that has an entry
// among the last `entries` requests with fewer than `merge` groups joins
// it. Fed in pieces it gives exactly what one call with all of them gives.
class ScuCoalescer {
public:
  ScuCoalescer(uint32_t line_bytes, uint32_t width, uint32_t entries, uint32_t merge)
      : line_(line_bytes), width_(width), entries_(entries), merge_(merge) {}
  // Appends `e`; whole cycle groups become requests (the rest waits for
  // more elements unless `last`). Returns the number of new requests.
  size_t add(const std::vector<ScuElement>& e, bool last);
  const std::vector<ScuLineRequest>& requests() const { return reqs_; }

private:
  void group(size_t from, size_t to);
  uint32_t line_, width_, entries_, merge_;
  std::vector<Addr> pending_; // lines of elements not yet in a whole group
  std::vector<ScuLineRequest> reqs_;
  std::unordered_map<Addr, size_t> open_; // line -> its latest request
  uint64_t lookups_ = 0;
};

class ScuCore {
public:
  ScuCore(const ScuCommand& c, uint32_t line_bytes, uint32_t width, uint32_t coalescer_entries,
          uint32_t coalescer_merge, uint32_t vector_fifo_bytes);

  // Elements [first, first + count) form chunk k; count() chunks in all.
  uint64_t chunks() const { return chunks_; }
  uint64_t chunk_first(uint64_t k) const { return k * chunk_; }
  uint64_t chunk_count(uint64_t k) const;

  // The vector lines chunk k needs (mask, index, count), in fetch order:
  // by the first element they hold, so a slice's lines come in together.
  std::vector<Addr> vector_lines(uint64_t k) const;
  // The vector lines elements [first, end) need.
  std::vector<Addr> vector_lines(uint64_t first, uint64_t end) const;
  // Elements a vector line holds: the address generator's slice (it
  // starts a slice once the slice's vector lines are in).
  uint64_t slice_elements() const { return line_ / 4; }
  // With the chunk's vectors readable through `vec`: the data elements in
  // output order. Bitmask: every data[i] (the output is the mask).
  std::vector<ScuElement> elements(uint64_t k, const ByteReader& vec) const {
    return elements(chunk_first(k), chunk_first(k) + chunk_count(k), vec);
  }
  // The same for input elements [first, end) (their vectors readable).
  std::vector<ScuElement> elements(uint64_t first, uint64_t end, const ByteReader& vec) const;
  // Apply mode: the lines of the filter vector for the unfiltered output
  // elements [pos, pos + n), and the elements it keeps (a repeated element
  // becomes one element per copy, each with its own flag).
  std::vector<Addr> apply_lines(uint64_t pos, uint64_t n) const;
  std::vector<ScuElement> applied(const std::vector<ScuElement>& e, uint64_t pos,
                                  const ByteReader& vec) const;
  // BestCost: where element x's cost word lies (same position in `cost`).
  Addr cost_addr(const ScuElement& x) const {
    return c_.cost + (x.addr - c_.data) / c_.elem_bytes * 4;
  }
  // BestCost: the costs of `e` (cost words readable through `data`, cost_add
  // through `vec`), saturating below the empty marker.
  std::vector<uint32_t> costs(const std::vector<ScuElement>& e, const ByteReader& data,
                              const ByteReader& vec) const;
  // The elements as line requests through the coalescing unit (ScuCoalescer).
  std::vector<ScuLineRequest> data_requests(const std::vector<ScuElement>& e) const;
  ScuCoalescer coalescer() const { return ScuCoalescer(line_, width_, entries_, merge_); }
  // The bytes the chunk produces, with the data readable through `data`.
  std::vector<uint8_t> output(uint64_t k, const std::vector<ScuElement>& e,
                              const ByteReader& data) const;
  // Elements the chunk produces (output bytes / output element size).
  uint32_t out_elem_bytes() const {
    return c_.op == ScuOp::Bitmask || c_.generate ? 4 : c_.elem_bytes;
  }
  const ScuCommand& command() const { return c_; }

private:
  bool keep(uint64_t i, const ByteReader& vec) const;
  uint32_t u32(Addr base, uint64_t i, const ByteReader& vec) const;

  ScuCommand c_;
  uint32_t line_, width_, entries_, merge_;
  uint64_t chunk_ = 1, chunks_ = 0;
};

// The operation's output, computed directly (no timing, no coalescing);
// a generated filter vector (`apply`) is applied; no filtering.
std::vector<uint8_t> scu_reference(const ScuCommand& c, const ByteReader& mem);

// One probe of the unique filter (seed-003 §2.5) on a set's `ways` entries
// (`set` points at them, in the line the unit fetched): x present -> false
// (drop); else x goes into an empty way, or over the way `*victim` points at
// (round robin; the pointer advances) when the set is full -> true (keep).
// Never drops a value it has not seen (no false positives); an evicted value
// can pass again (false negatives), which the kernels tolerate.
bool scu_unique_filter(uint32_t x, uint8_t* set, uint32_t ways, uint8_t* victim);

// One probe of the unique-best-cost filter (SSSP, seed-003 §2.5) on a set of
// `ways` 8-byte entries (ID, best cost): x present with a cost no higher than
// `cost` -> false (drop); present with a higher cost -> the cost is
// overwritten, true (keep: the earlier copy already passed and is not
// revisited [A]); absent -> inserted as scu_unique_filter does, true. Drops
// an element only after one with the same ID and a cost at most its own
// passed, so a distance it could improve is never lost.
bool scu_best_cost_filter(uint32_t x, uint32_t cost, uint8_t* set, uint32_t ways, uint8_t* victim);

} // namespace tlmgpu
