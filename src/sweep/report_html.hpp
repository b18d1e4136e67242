// `tlmgpu report`: one self-contained HTML page (inline CSS and SVG, no
// scripts, no network) from a sweep's results.json, with the LAB paper's
// Figs. 4-7 per platform, a table of every point and the failed points.
// Deterministic: the same results give byte-identical HTML. Kernel-free.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tlmgpu::sweep {

std::string render_report(const nlohmann::ordered_json& results);

} // namespace tlmgpu::sweep
