#include "tlmgpu/json_text.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace tlmgpu;
using nlohmann::json;

namespace {

std::string text(const json& j, int indent, unsigned depth = 0) {
  std::string s;
  append_json(s, j, indent, depth);
  return s;
}

// Strings from the cases the fast path must leave to nlohmann: escapes,
// control bytes, DEL, UTF-8 of two to four bytes.
std::string random_string(std::mt19937_64& r) {
  static const char* const parts[] = {"gpu",
                                      "l2_3",
                                      "\"",
                                      "\\",
                                      "\n",
                                      "\t",
                                      "\x01",
                                      "\x1f",
                                      "\x7f",
                                      "caf\xc3\xa9",
                                      "\xe2\x82\xac",
                                      "\xf0\x9f\x98\x80",
                                      " ",
                                      "/",
                                      "",
                                      "hits per kilo-instruction"};
  std::string s;
  for (unsigned n = r() % 4; n; --n)
    s += parts[r() % std::size(parts)];
  return s;
}

double random_double(std::mt19937_64& r) {
  switch (r() % 6) {
  case 0:
    return double(int64_t(r() % 2001) - 1000) / 8; // short decimals
  case 1:
    return 0.0 * (r() % 2 ? 1 : -1); // -0.0 too
  case 2:
    return std::ldexp(double(r() % 1000), int(r() % 200) - 100);
  default: {
    uint64_t bits = r(); // any double, NaN and infinities included
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  }
}

json random_json(std::mt19937_64& r, int depth) {
  switch (r() % (depth > 0 ? 9 : 7)) {
  case 0:
    return nullptr;
  case 1:
    return r() % 2 == 0;
  case 2:
    return int64_t(r());
  case 3:
    return uint64_t(r());
  case 4:
    return random_double(r);
  case 5:
    return random_string(r);
  case 6: {
    json::binary_t::container_type bytes{uint8_t(r()), 0, 255};
    return r() % 2 ? json::binary(bytes, 7) : json::binary(bytes);
  }
  case 7: {
    json a = json::array();
    for (unsigned n = r() % 4; n; --n)
      a.push_back(random_json(r, depth - 1));
    return a;
  }
  default: {
    json o = json::object();
    for (unsigned n = r() % 5; n; --n)
      o[random_string(r)] = random_json(r, depth - 1);
    return o;
  }
  }
}

} // namespace

TEST_CASE("json text: every value is written as nlohmann's dump writes it", "[json_text]") {
  const json fixed = {
      {"empty_object", json::object()},
      {"empty_array", json::array()},
      {"int_min", std::numeric_limits<int64_t>::min()},
      {"uint_max", std::numeric_limits<uint64_t>::max()},
      {"doubles", {0.1, 1e300, -2.5e-308, 1.0, 123456789.0, 5e-324, NAN, -INFINITY}},
      {"nested", {{"a", {1, {2, 3}, json::object()}}, {"b", {{"c", nullptr}}}}},
      {"binary", json::binary({1, 2, 3})},
      {"discarded", json(json::value_t::discarded)}};
  std::mt19937_64 r(13);
  std::vector<json> cases{fixed, json(), json::object(), json::array(), "plain"};
  for (int i = 0; i < 300; ++i)
    cases.push_back(random_json(r, 5));
  for (const json& j : cases)
    for (int indent : {-1, 0, 2, 4}) {
      INFO(j.dump(-1, ' ', true) << " at indent " << indent);
      std::string ref;
      try {
        ref = j.dump(indent);
      } catch (const json::type_error&) { // invalid UTF-8: the same exception
        CHECK_THROWS_AS(text(j, indent), json::type_error);
        continue;
      }
      REQUIRE(text(j, indent) == ref);
      // Nested `depth` deep: each line after the first is that much further in.
      std::string deep;
      for (char c : ref)
        deep += c == '\n' ? std::string("\n   ") : std::string(1, c);
      CHECK(text(j, indent, 3) == (indent < 0 ? ref : deep));
    }
}

TEST_CASE("json text: invalid UTF-8 throws as nlohmann's dump does", "[json_text]") {
  const json bad = std::string("ab\xff");
  CHECK_THROWS_AS(bad.dump(), json::type_error);
  CHECK_THROWS_AS(text(bad, 2), json::type_error);
  std::string key;
  CHECK_THROWS_AS(append_json_string(key, "\xc3"), json::type_error);
}

TEST_CASE("json text: a string is appended quoted, escaped only where it must be", "[json_text]") {
  std::string s = "x";
  append_json_string(s, "per kilo-instruction (x1000)");
  append_json_string(s, "a\"b\\c\n\x01");
  CHECK(s == R"J(x"per kilo-instruction (x1000)""a\"b\\c\n\u0001")J");
}

TEST_CASE("json text: spliced members take their place in key order", "[json_text]") {
  const auto write = [](json v) {
    return
        [v](std::string& out, int indent, unsigned depth) { append_json(out, v, indent, depth); };
  };
  const json spliced = {{"b", {1, 2}}, {"kernels", {{"x", json::object()}}}};
  // Before, between and after doc's keys, replacing one, into null.
  for (json doc : {json{{"a", 1}}, json{{"c", 1}, {"z", {{"y", 2}}}},
                   json{{"kernels", 5}, {"m", {1, 2}}}, json(), json::object()})
    for (int indent : {-1, 2}) {
      std::string text;
      append_json_object(text, doc,
                         {{"kernels", write(spliced["kernels"])}, {"b", write(spliced["b"])}},
                         indent, 0);
      doc.update(spliced);
      CHECK(text == doc.dump(indent));
    }
  std::string none;
  append_json_object(none, json(), {}, 2, 0);
  CHECK(none == "{}");
}
