// Platform files: JSON in, a validated PlatformSpec out, and back.
//
// load_platform() resolves "extends" chains (deep merge, child wins), applies
// --set overrides, then walks PlatformSpec::visit with a strict reader: a key
// that no declaration reads, a value of the wrong type or out of range is a
// ConfigError naming the file and the full dotted key (house style rules 3-5).
// Nothing here touches the SystemC kernel.
#pragma once

#include "tlmgpu/params.hpp"
#include "tlmgpu/platform.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tlmgpu {

// Reads `path` (and its "extends" parents), applies `sets` ("a.b.c=value"; the
// value is parsed as JSON when it parses, else taken as a string), validates
// every key and calls derive(). Throws ConfigError with a one-line message.
PlatformSpec load_platform(const std::string& path, const std::vector<std::string>& sets = {});

// The host memory a simulation of `p` takes, roughly (per SM, per L2 slice,
// per DRAM channel; the backing store and the workload are not included),
// and check_memory() of it naming `origin` and the counts that drive it.
uint64_t estimate_platform_memory(const PlatformSpec& p);
void check_platform_memory(const PlatformSpec& p, const std::string& origin);

// ConfigError when two of `sets` name the same key (like a repeated --arg).
void check_sets_unique(const std::vector<std::string>& sets);

// A JSON config file with its "extends" chain merged (child values win,
// objects merge key by key); `what` names the kind of file in errors.
nlohmann::json load_config_tree(const std::string& path, const std::string& what);

// The same from an in-memory document; `origin` names it in error messages.
// "extends" is not allowed here (there is no directory to resolve it in).
PlatformSpec platform_from_json(const nlohmann::json& doc, const std::string& origin);

// Every parameter with its value, defaults resolved, nested by group. Loading
// this document again yields the same spec.
nlohmann::json effective_config(const PlatformSpec& spec);

// Aligned, human-readable table of parameter rows (`tlmgpu describe`).
std::string render_describe(const std::vector<ParamRow>& rows);

// Levenshtein distance, and the candidate closest to `key` if it is close
// enough to be a plausible typo ("" otherwise).
// The error for a JSON parse failure at byte offset `byte` of `text` (the
// library's parse_error::byte and what()): "<shown>:<line>:<col>: malformed
// JSON: <reason>", independent of the library's wording. Shared by every
// strict JSON reader (platform files, sweep specs).
ConfigError malformed_json(const std::string& shown, const std::string& text, std::size_t byte,
                           const std::string& what);

std::size_t edit_distance(std::string_view a, std::string_view b);
std::string closest_match(std::string_view key, const std::vector<std::string>& candidates);

} // namespace tlmgpu
