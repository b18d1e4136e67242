// The shape of results.json that `tlmgpu report` relies on, checked before
// the report touches it: a file from another tool or version, or one edited
// by hand, gets one message naming the file and the JSON path
// ("results.json: points[3].seed: expected an unsigned integer, got "x""),
// never a library assertion or a raw type_error. Kernel-free.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tlmgpu::sweep {

// Throws ConfigError when `results` (as merge_results writes it) lacks a key
// the report reads or has one of the wrong type. `file` names it.
void check_results_schema(const nlohmann::ordered_json& results, const std::string& file);

} // namespace tlmgpu::sweep
