// JSON input that cannot crash the process. nlohmann's parser is iterative,
// but copying, merging, comparing and printing a document recurse once per
// level of nesting, so a file nested 100,000 levels deep overflowed the stack
// in the platform loader, the sweep-spec loader and `report`. Every JSON entry
// point (platform and node files, --set values, sweep specs, results.json,
// point markers, stats.json read back, manifests) parses through here or
// calls check_json_depth from its own parser callback, so no document deeper
// than kMaxJsonDepth is ever built.
#pragma once

#include "tlmgpu/config.hpp"
#include "tlmgpu/params.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace tlmgpu {

// Deepest nesting of objects and arrays accepted. Real inputs nest a few
// levels (a platform 4, results.json 4); 256 levels cost a few kB of stack in
// the recursive walks, far below the 8 MiB default (docs/config.md).
inline constexpr int kMaxJsonDepth = 256;

// ConfigError "<shown>: JSON nested deeper than 256 levels (the limit)".
[[noreturn]] void throw_json_too_deep(const std::string& shown);

// For a parser callback (nlohmann's parser_callback_t gets the depth of each
// event): throws before a container beyond the limit is opened. The depth of
// a top-level container's start event is 0.
template <class ParseEvent>
void check_json_depth(int depth, ParseEvent ev, const std::string& shown) {
  if ((ev == ParseEvent::object_start || ev == ParseEvent::array_start) && depth >= kMaxJsonDepth)
    throw_json_too_deep(shown);
}

// `text` as JSON of any shape, depth-limited. Malformed: ConfigError
// "<shown>:<line>:<col>: malformed JSON: <reason>".
template <class Json = nlohmann::json>
Json parse_json(const std::string& text, const std::string& shown) {
  auto check = [&](int depth, typename Json::parse_event_t ev, Json&) {
    check_json_depth(depth, ev, shown);
    return true;
  };
  try {
    return Json::parse(text, check);
  } catch (const typename Json::parse_error& e) {
    throw malformed_json(shown, text, e.byte, e.what());
  } catch (const typename Json::out_of_range& e) { // a number beyond a double: 1e999
    throw malformed_json(shown, text, 0, e.what());
  }
}

// The same for input that may legitimately be damaged (a run killed while
// writing): a discarded value (is_discarded()) instead of an error when it is
// malformed or too deep.
template <class Json = nlohmann::json>
Json try_parse_json(const std::string& text) {
  try {
    return parse_json<Json>(text, "");
  } catch (const ConfigError&) {
    return Json(Json::value_t::discarded);
  }
}

// Reads the whole of `path` into `text` if it is a regular file of at most
// `max_bytes`; returns "" or the reason it did not ("Permission denied", "not
// a regular file", "is 100.0 MiB, more than the 16.0 MiB such a file may be").
std::string read_regular_file(const std::string& path, std::string& text, uint64_t max_bytes);

// The whole of a file as text; false when it cannot be opened or read or is
// not a regular file (a FIFO would block forever).
bool read_text_file(const std::string& path, std::string& text);

// The largest platform, node or sweep-spec file read. Real ones are a few
// kilobytes; a parsed JSON document takes about 25 times its text, so a
// 100 MB file used to take 2.5 GiB before its first type error.
inline constexpr uint64_t kMaxConfigFileBytes = uint64_t{16} << 20;

// A configuration file (`what`: "platform file") as text: ConfigError
// "cannot read <what> '<path>': <reason>" when it cannot be opened (the
// reason from strerror: "Permission denied"), is not a regular file or is
// larger than kMaxConfigFileBytes.
std::string read_config_file(const std::string& path, const std::string& what);

} // namespace tlmgpu
