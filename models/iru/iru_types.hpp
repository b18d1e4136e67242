// What the host hands the IRU (configure_iru, seed-003 §3.2, thesis Fig. 5.7)
// and what travels through it: elements of (index, secondary, position).
// Kernel-free.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlmgpu {

using Addr = uint64_t;

// The merge ALU of a configuration (thesis §5.3): on two elements with equal
// indices in one hash set, MinU32 keeps the one with the smaller secondary
// (SSSP's best cost, with its position); AddF32 adds the secondaries as
// floats (PageRank). Either drops the second element ("filtered").
enum class IruMerge : uint8_t { None, MinU32, AddF32 };
// "none", "min_u32", "add_f32" (iru.merge); throws std::invalid_argument
// otherwise (iru_hash.cpp, beside the merge ALU).
IruMerge iru_merge_of(const std::string& name);
const char* iru_merge_name(IruMerge m);

// A lane that got no element reads this index (load_iru returns false):
// indices are 24-bit in the thesis, so it is never a real one.
constexpr uint32_t kIruInactive = 0xffffffffu;

struct IruElement {
  uint32_t index = 0, secondary = 0;
  uint32_t position = 0; // in the original arrays (32-bit: notes P19)
  friend bool operator==(const IruElement&, const IruElement&) = default;
};

// configure_iru(target_array, elem_size, indices, secondary, n, filter_op).
// Both arrays hold 32-bit words; `secondary` 0 = none.
struct IruConfig {
  Addr target = 0;         // target_array: the irregular access is target[index]
  uint32_t elem_bytes = 4; // its element size: which memory block target[index] is in
  Addr indices = 0, secondary = 0;
  uint64_t n = 0;
  std::optional<IruMerge> merge; // unset: the platform's iru.merge
  // The ISCU (models/scu README, "ISCU"): the SCU's pre-processing fetches,
  // redirected to the partitions. Position i's index is the 4-byte word at
  // gather[i] (each partition reads the lines of its own slices); `indices`
  // is unused. Empty: the `indices` array, as configure_iru.
  std::vector<Addr> gather;
  // With gather: position i's secondary word (the ISCU's best-cost filter:
  // the cost the SCU computed for it, carried with the redirected fetch).
  // Empty: 0 for every position.
  std::vector<uint32_t> gather_secondary;
  // The ISCU's unique filter across operations (notes P20): the hash sets
  // remember the IDs they reply (iru.filter_residue each) and drop them in
  // this and later operations that also remember; `forget` first clears
  // what earlier ones remembered (a new traversal). remember = false
  // forgets them too.
  bool remember = false, forget = false;
  // The ISCU's stream: the gathered words arrive after configure, by
  // IruControl::append, as the SCU generates them, until IruControl::close;
  // until then no reply is a drain (more input may come) and none is all
  // inactive. gather and gather_secondary start empty.
  bool streamed = false;

  // Empty, or what is wrong (one line naming the field).
  std::string problem() const {
    if (!elem_bytes || elem_bytes > 1024) return "elem_bytes must be 1..1024";
    if (streamed && (n || !gather.empty() || indices || secondary))
      return "streamed: the gathered words come by append (n 0, no arrays)";
    if (!gather.empty() || streamed) {
      if (n != gather.size()) return "gather: n must be the number of gathered words";
      if (secondary) return "gather: no secondary array (gather_secondary holds the words)";
      if (!gather_secondary.empty() && gather_secondary.size() != n)
        return "gather_secondary: one word per gathered position";
      for (Addr a : gather)
        if (a % 4) return "gather: every word must be 4-byte aligned";
      return "";
    }
    if (!gather_secondary.empty()) return "gather_secondary: only with gather";
    if (n && !indices) return "indices: no array";
    if (n > 0xffffffffull) return "n: positions are 32-bit (at most 2^32 - 1 elements)";
    if (indices % 4 || secondary % 4) return "indices and secondary must be 4-byte aligned";
    return "";
  }
};

} // namespace tlmgpu
