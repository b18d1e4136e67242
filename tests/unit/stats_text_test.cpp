// StatGroup::append_json (stats.json's "total", written without a tree)
// against the tree dump() builds, written by append_json.
#include "tlmgpu/json_text.hpp"
#include "tlmgpu/stats.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <random>

using namespace tlmgpu;

namespace {

std::string from_tree(const StatGroup& g, StatView v, bool full, int indent, unsigned depth) {
  nlohmann::json tree;
  g.dump(tree, v, full);
  std::string s;
  append_json(s, tree, indent, depth);
  return s;
}

std::string direct(const StatGroup& g, StatView v, bool full, int indent, unsigned depth) {
  std::string s;
  g.append_json(s, v, full, indent, depth);
  return s;
}

// A random hierarchy like a GPU's: counters, averages, histograms and
// formulas (NaN and infinity too), empty groups, names in any order.
struct Tree {
  StatGroup root;
  std::vector<std::unique_ptr<StatGroup>> groups;

  void fill(StatGroup& g, std::mt19937_64& r, int depth) {
    const std::string names[] = {"hits", "misses", "l2_0", "l2_10", "l2_2", "sm_0",
                                 "Zeta", "a.b",    "x\"y", "bytes", "ipc"};
    for (unsigned n = r() % 5; n; --n) {
      const std::string& name = names[r() % std::size(names)];
      switch (r() % 4) {
      case 0:
        g.counter(name, "requests", "a counter") += r() % 1000;
        break;
      case 1:
        g.average(name, "cycles", "an average").sample(double(r() % 100) / 3);
        break;
      case 2:
        g.histogram(name, "cycles", "a histogram", 4, 1 + r() % 5).sample(r() % 30);
        break;
      default: {
        const double x = std::vector<double>{0.5, NAN, INFINITY, 1e-9}[r() % 4];
        g.formula(name, "ratio", "a formula", [x](StatView) { return x; });
      }
      }
    }
    if (depth > 0)
      for (unsigned n = r() % 4; n; --n) {
        groups.push_back(std::make_unique<StatGroup>(g, names[r() % std::size(names)]));
        fill(*groups.back(), r, depth - 1);
      }
  }
};

} // namespace

TEST_CASE("stats text: every group writes what its dumped tree writes", "[stats_text]") {
  std::mt19937_64 r(7);
  int direct_groups = 0;
  for (int t = 0; t < 200; ++t) {
    Tree tree;
    tree.fill(tree.root, r, 3);
    if (t % 2) tree.root.close_epoch();
    for (StatView v : {StatView::Epoch, StatView::Total})
      for (bool full : {true, false})
        for (int indent : {-1, 2}) {
          INFO("tree " << t << " full " << full << " indent " << indent);
          std::string ref;
          try {
            ref = from_tree(tree.root, v, full, indent, 2);
          } catch (const nlohmann::json::type_error&) {
            // A group named like a stat of its parent, values only: dump()
            // cannot index the stat's number; neither can the text.
            CHECK_THROWS_AS(direct(tree.root, v, full, indent, 2), nlohmann::json::type_error);
            continue;
          }
          CHECK(direct(tree.root, v, full, indent, 2) == ref);
          ++direct_groups;
        }
  }
  CHECK(direct_groups > 400); // most trees are comparable, not exceptions
}

TEST_CASE("stats text: an empty group is null, as dump() leaves it", "[stats_text]") {
  StatGroup root;
  CHECK(direct(root, StatView::Total, true, 2, 0) == "null");
  StatGroup gpu(root, "gpu"), empty(gpu, "sm_0");
  CHECK(direct(root, StatView::Total, true, 2, 0) == from_tree(root, StatView::Total, true, 2, 0));
  gpu.counter("cycles", "cycles", "core cycles") += 3;
  CHECK(direct(root, StatView::Total, false, -1, 0) == R"({"gpu":{"cycles":3,"sm_0":null}})");
}
