#include "tlmgpu/json_text.hpp"

#include <nlohmann/json.hpp>

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
bool needs_escape(const std::string& s) {
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

// The layout of nlohmann's serializer::dump: pretty objects and arrays put
// each member on its own line, `step` deeper; empty ones are "{}" and "[]".
class Writer {
public:
  Writer(std::string& out, int indent)
      : out_(out), pretty_(indent >= 0), step_(pretty_ ? unsigned(indent) : 0) {}

  void value(const json& j, unsigned depth) {
    switch (j.type()) {
    case json::value_t::object:
      return object(j.get_ref<const json::object_t&>(), depth);
    case json::value_t::array:
      return array(j.get_ref<const json::array_t&>(), depth);
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
  void open(char bracket) {
    out_ += bracket;
    if (pretty_) out_ += '\n';
  }
  void next() { out_ += pretty_ ? ",\n" : ","; }
  void close(char bracket, unsigned depth) {
    if (pretty_) {
      out_ += '\n';
      out_.append(depth, ' ');
    }
    out_ += bracket;
  }
  void indent(unsigned depth) {
    if (pretty_) out_.append(depth, ' ');
  }

  void object(const json::object_t& o, unsigned depth) {
    if (o.empty()) {
      out_ += "{}";
      return;
    }
    open('{');
    bool first = true;
    for (const auto& [key, v] : o) {
      if (!first) next();
      first = false;
      indent(depth + step_);
      append_json_string(out_, key);
      out_ += pretty_ ? ": " : ":";
      value(v, depth + step_);
    }
    close('}', depth);
  }

  void array(const json::array_t& a, unsigned depth) {
    if (a.empty()) {
      out_ += "[]";
      return;
    }
    open('[');
    for (size_t i = 0; i < a.size(); ++i) {
      if (i) next();
      indent(depth + step_);
      value(a[i], depth + step_);
    }
    close(']', depth);
  }

  // Never in tlmgpu's documents (binary values come from CBOR and the like);
  // written as nlohmann does so that every json prints as dump() does.
  void binary(const json::binary_t& b, unsigned depth) {
    const unsigned inner = depth + step_;
    out_ += pretty_ ? "{\n" : "{";
    indent(inner);
    out_ += pretty_ ? "\"bytes\": [" : "\"bytes\":[";
    for (size_t i = 0; i < b.size(); ++i) {
      if (i) out_ += pretty_ ? ", " : ",";
      append_integer(out_, b[i]);
    }
    out_ += pretty_ ? "],\n" : "],";
    indent(inner);
    out_ += pretty_ ? "\"subtype\": " : "\"subtype\":";
    if (b.has_subtype())
      append_integer(out_, b.subtype());
    else
      out_ += "null";
    close('}', depth);
  }

  std::string& out_;
  const bool pretty_;
  const unsigned step_;
};

} // namespace

void append_json_string(std::string& out, const std::string& s) {
  if (needs_escape(s)) {
    out += json(s).dump(); // nlohmann's escaping and UTF-8 check
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

void append_json(std::string& out, const nlohmann::json& j, int indent, unsigned depth) {
  Writer(out, indent).value(j, depth);
}

} // namespace tlmgpu
