// StatTree (the kernel end's values-only tree, kept between launches): after
// every change of values, of the groups' shape, or with names that repeat,
// refresh() equals a fresh dump().
#include "tlmgpu/stats.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <memory>

using namespace tlmgpu;

namespace {

nlohmann::json fresh(const StatGroup& root, StatView v) {
  nlohmann::json t;
  root.dump(t, v, false);
  return t;
}

} // namespace

TEST_CASE("StatTree follows values, epochs and new stats", "[stat_tree]") {
  StatGroup root;
  StatGroup gpu(root, "gpu");
  StatGroup sm(gpu, "sm_0");
  Counter& loads = sm.counter("loads", "accesses", "");
  Average& lat = sm.average("latency", "cycles", "");
  Histogram& h = gpu.histogram("sizes", "bytes", "", 4, 3);
  gpu.formula("twice", "accesses", "", [&](StatView v) { return 2.0 * double(loads.value(v)); });
  StatTree kept;

  loads += 3;
  lat.sample(10);
  h.sample(5);
  CHECK(kept.refresh(root, StatView::Epoch) == fresh(root, StatView::Epoch));
  root.close_epoch();
  loads += 4;
  h.sample(9);
  CHECK(kept.refresh(root, StatView::Epoch) == fresh(root, StatView::Epoch));
  CHECK(kept.refresh(root, StatView::Epoch)["gpu"]["sm_0"]["loads"] == 4);
  CHECK(kept.refresh(root, StatView::Total) == fresh(root, StatView::Total));

  // A stat and a group added after the tree was kept, then a group removed.
  Counter& stores = sm.counter("stores", "accesses", "");
  stores += 2;
  auto l1 = std::make_unique<StatGroup>(sm, "l1");
  l1->counter("hits", "accesses", "") += 1;
  CHECK(kept.refresh(root, StatView::Epoch) == fresh(root, StatView::Epoch));
  CHECK(kept.refresh(root, StatView::Epoch)["gpu"]["sm_0"]["l1"]["hits"] == 1);
  l1.reset();
  loads += 1;
  CHECK(kept.refresh(root, StatView::Epoch) == fresh(root, StatView::Epoch));
  CHECK(!kept.refresh(root, StatView::Epoch)["gpu"]["sm_0"].contains("l1"));
}

TEST_CASE("StatTree with a name that repeats is a fresh dump each time", "[stat_tree]") {
  StatGroup root;
  StatGroup a(root, "x");
  Counter& c = a.counter("n", "events", "");
  StatGroup b(root, "x"); // merged with the first by dump()
  Counter& d = b.counter("m", "events", "");
  StatTree kept;
  c += 1;
  d += 2;
  CHECK(kept.refresh(root, StatView::Total) == fresh(root, StatView::Total));
  c += 5;
  d += 7;
  CHECK(kept.refresh(root, StatView::Total) == fresh(root, StatView::Total));
  CHECK(kept.refresh(root, StatView::Total)["x"]["n"] == 6);
}
