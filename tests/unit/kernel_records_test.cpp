#include "tlmgpu/kernel_records.hpp"

#include <catch2/catch.hpp>

#include <iomanip>
#include <sstream>

using namespace tlmgpu;
using nlohmann::json;

namespace {
json metrics(double cycles) {
  return {{"cycles", cycles}, {"ipc", 1.5}, {"warp_instructions", uint64_t(42)}, {"atgr", 0.0}};
}
} // namespace

TEST_CASE("kernel records: the spliced stats.json equals the whole document's dump") {
  KernelRecords k;
  json doc = {{"check", "passed"}, {"metrics", {{"x", 1}}}, {"total", {{"gpu", {{"a", 2}}}}}};
  std::string empty;
  k.write_into(empty, doc);
  json with = doc;
  with["kernels"] = json::array();
  std::ostringstream ref0;
  ref0 << std::setw(2) << with;
  CHECK(empty == ref0.str());

  k.add("push", 100, metrics(100));
  k.add("update", 7, metrics(7), json{{"gpu", {{"sm_0", 3}}}});
  k.add("odd", 1, json{{"other", 1}}); // different names: kept as they are
  std::string out;
  k.write_into(out, doc);
  with["kernels"] = k.to_json();
  std::ostringstream ref;
  ref << std::setw(2) << with;
  CHECK(out == ref.str());
  CHECK(!doc.contains("kernels")); // the document is left as it was

  // "kernels" first, last, already there (replaced), and a null document.
  for (json d : {json{{"a", 1}}, json{{"z", 1}}, json{{"kernels", 5}, {"m", {1, 2}}}, json()}) {
    std::string text;
    k.write_into(text, d);
    d["kernels"] = k.to_json();
    CHECK(text == d.dump(2));
  }
  CHECK(k.at(0)["metrics"] == metrics(100));
  CHECK(k.at(0)["metrics"]["warp_instructions"].is_number_unsigned()); // types kept
  CHECK(k.at(1)["stats"]["gpu"]["sm_0"] == 3);
  CHECK(!k.at(0).contains("stats"));
  CHECK(k.at(2)["metrics"] == json{{"other", 1}});
}
