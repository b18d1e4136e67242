// JSON text byte for byte as nlohmann::json::dump writes it, appended to a
// string. stats.json is about 1.2 MB for titanv (80 SMs), and nlohmann's
// serializer runs every byte of every string through its UTF-8 decoder:
// writing the file took more instructions than building its tree (issue 13).
// Names, units and descriptions are printable ASCII with nothing to escape,
// and those are copied as they are; any other string, and every double, is
// formatted by nlohmann's own code, so the bytes cannot differ.
//
// `depth` also lets a caller write one value of a larger document at its
// nesting (KernelRecords::write_into) without building a tree of the whole.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace tlmgpu {

// Appends what `j.dump(indent)` returns (indent < 0: compact; the indent
// character is a space), as if `j` were nested `depth` spaces deep: every
// line after the first starts `depth` spaces further in.
void append_json(std::string& out, const nlohmann::json& j, int indent = -1, unsigned depth = 0);

// A string or an object key, quoted and escaped as nlohmann writes it.
void append_json_string(std::string& out, const std::string& s);

} // namespace tlmgpu
