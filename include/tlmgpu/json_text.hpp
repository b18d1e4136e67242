// JSON text byte for byte as nlohmann::json::dump writes it, appended to a
// string. stats.json is about 1.2 MB for titanv (80 SMs), and nlohmann's
// serializer runs every byte of every string through its UTF-8 decoder:
// writing the file took more instructions than building its tree (issue 13).
// Names, units and descriptions are printable ASCII with nothing to escape,
// and those are copied as they are; any other string, and every double, is
// formatted by nlohmann's own code, so the bytes cannot differ.
//
// `depth` and JsonNest let a caller write a document, or part of one,
// without a tree of the whole: stats.json's "total" section (55,000 nodes
// for titanv) comes straight from the StatGroups, each kernel's section
// one at a time (JsonSplice).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tlmgpu {

// Appends what `j.dump(indent)` returns (indent < 0: compact; the indent
// character is a space), as if `j` were nested `depth` spaces deep: every
// line after the first starts `depth` spaces further in.
void append_json(std::string& out, const nlohmann::json& j, int indent = -1, unsigned depth = 0);

// A string or an object key, quoted and escaped as nlohmann writes it.
void append_json_string(std::string& out, std::string_view s);

// An object or array written member by member in dump()'s layout: pretty
// (indent >= 0) puts each member on its own line, `indent` deeper than
// the container's `depth`; an empty one is "{}" or "[]".
class JsonNest {
public:
  JsonNest(std::string& out, char bracket, int indent, unsigned depth);
  // Before each object member: the separator, the indentation and the key;
  // the member's value follows, written at inner().
  void key(std::string_view name);
  // Before each array element, likewise.
  void element();
  unsigned inner() const { return depth_ + step_; }
  // The closing bracket (on its own line where pretty).
  void close();

private:
  std::string& out_;
  const char bracket_;
  const bool pretty_;
  const unsigned step_, depth_;
  bool empty_ = true;
};

// A member of an object written by a function rather than from a tree:
// write(out, indent, depth) appends the member's value at `depth`.
struct JsonSplice {
  std::string key;
  std::function<void(std::string& out, int indent, unsigned depth)> write;
};

// Appends the object `doc` (null: no members) with `splices` as further
// members, all in key order as nlohmann orders one object's keys; a splice
// replaces doc's member of the same key. Byte for byte what appending
// doc.dump(indent) gives after `doc[key] = <what write appends>`.
void append_json_object(std::string& out, const nlohmann::json& doc,
                        std::vector<JsonSplice> splices, int indent = 2, unsigned depth = 0);

} // namespace tlmgpu
