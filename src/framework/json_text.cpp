#include "tlmgpu/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace tlmgpu {
namespace {

using json = nlohmann::json;

// Bytes nlohmann writes as they are: below 0x20 it escapes, '"' and '\\'
// it escapes, from 0x80 on it checks the UTF-8 (and throws on bad input).
// A table and an early exit: names average 11 bytes, too short for the
// vectorized loop's setup to pay (callgrind: 230 instructions a string).
constexpr auto kEscape = [] {
  std::array<bool, 256> t{};
  for (unsigned c = 0; c < 256; ++c)
    t[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
  return t;
}();
bool needs_escape(std::string_view s) {
  for (unsigned char c : s)
    if (kEscape[c]) return true;
  return false;
}

template <class Int>
void append_integer(std::string& out, Int x) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

void append_double(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  // nlohmann's own shortest round-trip formatting (what dump() calls),
  // into a buffer the size of its serializer's.
  char buf[64];
  out.append(buf, nlohmann::detail::to_chars(buf, buf + sizeof buf, x));
}

// A json value at `depth`: nlohmann's serializer::dump, case by case.
class Writer {
public:
  Writer(std::string& out, int indent) : out_(out), indent_(indent) {}

  void value(const json& j, unsigned depth) {
    switch (j.type()) {
    case json::value_t::object: {
      JsonNest o(out_, '{', indent_, depth);
      for (const auto& [key, v] : j.get_ref<const json::object_t&>()) {
        o.key(key);
        value(v, o.inner());
      }
      return o.close();
    }
    case json::value_t::array: {
      JsonNest a(out_, '[', indent_, depth);
      for (const json& v : j.get_ref<const json::array_t&>()) {
        a.element();
        value(v, a.inner());
      }
      return a.close();
    }
    case json::value_t::string:
      return append_json_string(out_, j.get_ref<const std::string&>());
    case json::value_t::boolean:
      out_ += j.get<bool>() ? "true" : "false";
      return;
    case json::value_t::number_integer:
      return append_integer(out_, j.get<json::number_integer_t>());
    case json::value_t::number_unsigned:
      return append_integer(out_, j.get<json::number_unsigned_t>());
    case json::value_t::number_float:
      return append_double(out_, j.get<double>());
    case json::value_t::binary:
      return binary(j.get_binary(), depth);
    case json::value_t::discarded:
      out_ += "<discarded>";
      return;
    case json::value_t::null:
      out_ += "null";
      return;
    }
  }

private:
  // Never in tlmgpu's documents (binary values come from CBOR and the like);
  // written as nlohmann does so that every json prints as dump() does: an
  // object of "bytes" (on one line) and "subtype".
  void binary(const json::binary_t& b, unsigned depth) {
    JsonNest o(out_, '{', indent_, depth);
    o.key("bytes");
    out_ += '[';
    for (size_t i = 0; i < b.size(); ++i) {
      if (i) out_ += indent_ >= 0 ? ", " : ",";
      append_integer(out_, b[i]);
    }
    out_ += ']';
    o.key("subtype");
    if (b.has_subtype())
      append_integer(out_, b.subtype());
    else
      out_ += "null";
    o.close();
  }

  std::string& out_;
  const int indent_;
};

} // namespace

void append_json_string(std::string& out, std::string_view s) {
  if (needs_escape(s)) {
    out += json(std::string(s)).dump(); // nlohmann's escaping and UTF-8 check
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

void append_json(std::string& out, const nlohmann::json& j, int indent, unsigned depth) {
  Writer(out, indent).value(j, depth);
}

JsonNest::JsonNest(std::string& out, char bracket, int indent, unsigned depth)
    : out_(out), bracket_(bracket), pretty_(indent >= 0), step_(pretty_ ? unsigned(indent) : 0),
      depth_(depth) {}

void JsonNest::element() {
  out_ += empty_ ? bracket_ : ',';
  empty_ = false;
  if (pretty_) {
    out_ += '\n';
    out_.append(inner(), ' ');
  }
}

void JsonNest::key(std::string_view name) {
  element();
  append_json_string(out_, name);
  out_ += pretty_ ? ": " : ":";
}

void JsonNest::close() {
  if (empty_)
    out_ += bracket_;
  else if (pretty_) {
    out_ += '\n';
    out_.append(depth_, ' ');
  }
  out_ += bracket_ == '{' ? '}' : ']';
}

void append_json_object(std::string& out, const nlohmann::json& doc,
                        std::vector<JsonSplice> splices, int indent, unsigned depth) {
  static const json::object_t none;
  const auto& members = doc.is_null() ? none : doc.get_ref<const json::object_t&>();
  std::sort(splices.begin(), splices.end(),
            [](const JsonSplice& a, const JsonSplice& b) { return a.key < b.key; });
  JsonNest o(out, '{', indent, depth);
  auto next = splices.begin();
  const auto splice = [&] {
    o.key(next->key);
    next->write(out, indent, o.inner());
    ++next;
  };
  for (const auto& [key, v] : members) {
    while (next != splices.end() && next->key < key)
      splice();
    if (next != splices.end() && next->key == key) {
      splice(); // replaces doc's member
      continue;
    }
    o.key(key);
    Writer(out, indent).value(v, o.inner());
  }
  while (next != splices.end())
    splice();
  o.close();
}

} // namespace tlmgpu
