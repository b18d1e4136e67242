#include "models/runtime/lc_merge.hpp"
#include "models/runtime/datablock.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tlmgpu::rt {

const char* to_string(DbType t) {
  switch (t) {
  case DbType::Read:
    return "read";
  case DbType::Write:
    return "write";
  case DbType::Lc:
    return "lc";
  }
  return "?";
}

const char* to_string(MergeOp op) {
  switch (op) {
  case MergeOp::Copy:
    return "copy";
  case MergeOp::Latest:
    return "latest";
  case MergeOp::Min:
    return "min";
  case MergeOp::Max:
    return "max";
  case MergeOp::Add:
    return "add";
  case MergeOp::Xor:
    return "xor";
  }
  return "?";
}

MergeOp merge_op_from(const std::string& name) {
  for (MergeOp op :
       {MergeOp::Copy, MergeOp::Latest, MergeOp::Min, MergeOp::Max, MergeOp::Add, MergeOp::Xor})
    if (name == to_string(op)) return op;
  throw std::invalid_argument("unknown merge operator '" + name +
                              "' (copy, latest, min, max, add, xor)");
}

bool zero_is_identity(MergeOp op) {
  return op == MergeOp::Add || op == MergeOp::Xor;
}

namespace {
template <class T, class F>
void elementwise(std::vector<uint8_t>& h, const std::vector<uint8_t>& c, F f) {
  const size_t n = std::min(h.size(), c.size()) / sizeof(T);
  for (size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, h.data() + i * sizeof(T), sizeof(T));
    std::memcpy(&b, c.data() + i * sizeof(T), sizeof(T));
    a = f(a, b);
    std::memcpy(h.data() + i * sizeof(T), &a, sizeof(T));
  }
}
} // namespace

void merge_into(MergeOp op, std::vector<uint8_t>& h, const std::vector<uint8_t>& c) {
  switch (op) {
  case MergeOp::Copy:
  case MergeOp::Latest:
    std::copy(c.begin(), c.begin() + std::min(h.size(), c.size()), h.begin());
    return;
  case MergeOp::Min:
    return elementwise<uint32_t>(h, c, [](uint32_t a, uint32_t b) { return std::min(a, b); });
  case MergeOp::Max:
    return elementwise<uint32_t>(h, c, [](uint32_t a, uint32_t b) { return std::max(a, b); });
  case MergeOp::Add:
    return elementwise<uint32_t>(h, c, [](uint32_t a, uint32_t b) { return a + b; });
  case MergeOp::Xor:
    return elementwise<uint64_t>(h, c, [](uint64_t a, uint64_t b) { return a ^ b; });
  }
}

TreePlan plan_tree(uint32_t mask) {
  if (mask >> 8) throw std::invalid_argument("the reduction tree covers GPUs 0..7");
  TreePlan p;
  auto has = [&](int g) { return g >= 0 && (mask >> g & 1u); };
  int roots[2] = {-1, -1};
  for (int i = 0; i < 4; ++i)
    if (has(i) && has(i + 4)) {
      roots[0] = i;
      roots[1] = i + 4;
      break;
    }
  if (roots[0] < 0)
    for (int g = 0; g < 2; ++g)
      for (int i = 4 * g; i < 4 * g + 4; ++i)
        if (has(i)) {
          roots[g] = i;
          break;
        }
  // The pair rule: both present -> the winner is the root if it is one of
  // them, else the lower id; one present -> it passes up.
  auto pair = [&](int a, int b, int root, std::vector<std::pair<uint32_t, uint32_t>>& out) {
    if (a < 0) return b;
    if (b < 0) return a;
    const int win = (b == root) ? b : a, lose = win == a ? b : a;
    out.push_back({uint32_t(win), uint32_t(lose)});
    return win;
  };
  std::vector<std::pair<uint32_t, uint32_t>> level[3]; // level 3, 2, 1
  int group_win[2] = {-1, -1};
  for (int g = 0; g < 2; ++g) {
    const int b = 4 * g;
    const int w1 = pair(has(b) ? b : -1, has(b + 1) ? b + 1 : -1, roots[g], level[0]);
    const int w2 = pair(has(b + 2) ? b + 2 : -1, has(b + 3) ? b + 3 : -1, roots[g], level[0]);
    group_win[g] = pair(w1, w2, roots[g], level[1]);
  }
  // Level 1 joins the groups: over the i <-> i+4 NVLink when the roots are a
  // matched pair, else staged through the host (the executor's choice).
  if (group_win[0] >= 0 && group_win[1] >= 0) {
    level[2].push_back({uint32_t(group_win[0]), uint32_t(group_win[1])});
    p.roots = {uint32_t(group_win[0])};
  } else {
    for (int w : group_win)
      if (w >= 0) p.roots.push_back(uint32_t(w));
  }
  for (auto& l : level) {
    if (!l.empty()) ++p.depth;
    p.steps.insert(p.steps.end(), l.begin(), l.end());
  }
  return p;
}

TreePlan plan_host_serial(uint32_t mask) {
  TreePlan p;
  for (uint32_t g = 0; g < 32; ++g)
    if (mask >> g & 1u) p.roots.push_back(g);
  return p;
}

} // namespace tlmgpu::rt
