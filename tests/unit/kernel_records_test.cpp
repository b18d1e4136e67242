#include "tlmgpu/json_text.hpp"
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

// stats.json as run.cpp writes it: the records spliced in as "kernels".
std::string spliced(const KernelRecords& k, const json& doc) {
  std::string text;
  append_json_object(text, doc, {{"kernels", [&](std::string& out, int indent, unsigned depth) {
                                    k.append_json(out, indent, depth);
                                  }}});
  return text;
}
} // namespace

TEST_CASE("kernel records: the spliced stats.json equals the whole document's dump") {
  KernelRecords k;
  json doc = {{"check", "passed"}, {"metrics", {{"x", 1}}}, {"total", {{"gpu", {{"a", 2}}}}}};
  json with = doc;
  with["kernels"] = json::array();
  std::ostringstream ref0;
  ref0 << std::setw(2) << with;
  CHECK(spliced(k, doc) == ref0.str());

  k.add("push", 100, metrics(100));
  k.add("update", 7, metrics(7), json{{"gpu", {{"sm_0", 3}}}});
  k.add("odd", 1, json{{"other", 1}}); // different names: kept as they are
  with["kernels"] = k.to_json();
  std::ostringstream ref;
  ref << std::setw(2) << with;
  CHECK(spliced(k, doc) == ref.str());
  std::string compact;
  k.append_json(compact, -1, 0);
  CHECK(compact == k.to_json().dump());
  CHECK(k.at(0)["metrics"] == metrics(100));
  CHECK(k.at(0)["metrics"]["warp_instructions"].is_number_unsigned()); // types kept
  CHECK(k.at(1)["stats"]["gpu"]["sm_0"] == 3);
  CHECK(!k.at(0).contains("stats"));
  CHECK(k.at(2)["metrics"] == json{{"other", 1}});
}
