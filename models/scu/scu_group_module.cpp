// The Filtering/Grouping unit's grouping (seed-003 §2.6; README.md
// "Grouping"): the grouping table is real data in device memory, reached
// through the network and L2 like the filter's; the gather list it writes
// is applied by later operations (several arrays, one order).
#include "models/scu/scu_group.hpp"
#include "models/scu/scu_module.hpp"

#include <algorithm>
#include <cstring>

namespace tlmgpu {
namespace {
std::vector<uint8_t> as_bytes(const std::vector<uint32_t>& w) {
  std::vector<uint8_t> b(4 * w.size());
  if (!w.empty()) std::memcpy(b.data(), w.data(), b.size());
  return b;
}
} // namespace

std::vector<uint8_t> ScuModule::group_bytes(const ScuCommand& c, const std::vector<uint8_t>& bytes,
                                            uint64_t pos) {
  const unsigned lb = ctx_.net.line_bytes;
  // The key: the line of the element's target (elements of one warp's
  // lines then sit together for the kernel that reads the targets).
  std::vector<uint32_t> blocks(bytes.size() / 4), sets;
  for (size_t i = 0; i < blocks.size(); ++i) {
    uint32_t x;
    std::memcpy(&x, bytes.data() + 4 * i, 4);
    blocks[i] = uint32_t((c.group_target + 4ull * x) / lb);
    sets.push_back(c.hash.set_of(blocks[i]));
  }
  read_hash_sets(c.hash, sets);
  std::vector<uint32_t> emit;
  std::vector<Addr> dirty;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Addr set = c.hash.set_addr(sets[i]), line = set / lb * lb;
    scu_group_insert(blocks[i], uint32_t(pos + i), hash_set(c.hash, sets[i]), c.hash.ways,
                     c.hash.entry_bytes, &victim_[set], emit);
    group_sets_.insert(sets[i]);
    if (std::find(dirty.begin(), dirty.end(), line) == dirty.end()) dirty.push_back(line);
  }
  write_hash_lines(dirty);
  return as_bytes(emit);
}

std::vector<uint8_t> ScuModule::group_flush(const ScuCommand& c) {
  const unsigned lb = ctx_.net.line_bytes;
  // The sets this operation filled, in set order (the unit keeps the list;
  // their lines are still the ones it read and changed).
  std::vector<uint32_t> emit;
  std::vector<Addr> dirty;
  for (uint32_t s : group_sets_) {
    const Addr line = c.hash.set_addr(s) / lb * lb;
    if (scu_group_flush(hash_set(c.hash, s), c.hash.ways, c.hash.entry_bytes, emit) &&
        std::find(dirty.begin(), dirty.end(), line) == dirty.end())
      dirty.push_back(line);
  }
  group_sets_.clear();
  write_hash_lines(dirty);
  return as_bytes(emit);
}

std::vector<ScuElement> ScuModule::apply_order(const ScuCore& core,
                                               const std::vector<ScuElement>& e,
                                               const DeviceMemory& mem) {
  const ScuCommand& c = core.command();
  std::vector<ScuElement> plain;
  for (const ScuElement& x : e)
    plain.insert(plain.end(), x.repeat, ScuElement{x.addr, 1, x.row});
  check_range(mem, c, "order", c.order, 4 * plain.size());
  if (c.apply) check_range(mem, c, "apply", c.apply, 4 * plain.size());
  // The list (and a filter vector) stream in like the other vectors, in
  // order, whole lines.
  std::vector<Req> vec;
  const unsigned lb = ctx_.net.line_bytes;
  for (Addr l = c.order / lb * lb; l < c.order + 4 * plain.size(); l += lb)
    vec.push_back({l, false, 0, {}, {}});
  if (c.apply)
    for (Addr l : core.apply_lines(0, plain.size()))
      vec.push_back({l, false, 0, {}, {}});
  vector_reads_ += vec.size();
  const std::vector<Addr> read = transfer(vec);
  std::vector<ScuElement> out;
  std::vector<uint8_t> seen(plain.size(), 0);
  for (uint64_t k = 0; k < plain.size(); ++k) {
    uint32_t at;
    read_bytes(c.order + 4 * k, &at, 4);
    // A gather list is a permutation: a missing or repeated position would
    // silently lose or double an element.
    if (at >= plain.size() || seen[at]++)
      throw ConfigError("SCU " + std::string(c.name()) + ": order[" + std::to_string(k) +
                        "] = " + std::to_string(at) + " is not a permutation of the " +
                        std::to_string(plain.size()) + " output positions");
    uint32_t keep = 1;
    if (c.apply) read_bytes(c.apply + 4 * uint64_t(at), &keep, 4);
    if (keep) out.push_back(plain[at]);
  }
  release(read);
  return out;
}

} // namespace tlmgpu
