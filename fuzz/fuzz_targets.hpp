// What each libFuzzer harness does with one input, shared with the normal
// suite (tests/unit/fuzz_regressions_test.cpp replays every saved input
// through the same function). Each returns when the reader accepted the
// input or rejected it the documented way (GraphFormatError for graph
// files, ConfigError for the JSON readers); anything else (another
// exception, a crash, a sanitizer report) escapes and is a finding.
#pragma once

#include "src/sweep/report_html.hpp"
#include "src/sweep/results_schema.hpp"
#include "src/sweep/sweep_spec.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/json_limits.hpp"
#include "workloads/graph/readers.hpp"

#include <string>

namespace tlmgpu::fuzz {

using GraphReader = graph::CsrGraph (*)(const std::string&, const graph::GraphBuildOptions&);

// One graph reader on a file. Limits far below the defaults keep one
// input's memory small; the checks against them are under test, not the
// machine's RAM. `undirected` runs the symmetrize/dedup build policy.
// Whatever is accepted must be a valid CSR graph.
inline void graph_file(GraphReader read, const std::string& path, bool undirected) {
  graph::GraphBuildOptions o = undirected ? graph::GraphBuildOptions::simple_undirected()
                                          : graph::GraphBuildOptions::as_stored();
  o.max_vertices = 1 << 20;
  o.max_edges = 1 << 22;
  try {
    read(path, o).validate();
  } catch (const graph::GraphFormatError&) {
  }
}

// The platform reader (file, strict JSON with a depth limit, the visitor over
// every parameter, the topology, derive()) and what `config` prints.
inline void platform_file(const std::string& path) {
  try {
    (void)effective_config(load_platform(path));
  } catch (const ConfigError&) {
  }
}

// The sweep-spec reader and, for a small valid matrix, the point expansion.
// Platform paths resolve in a directory that does not exist.
inline void sweep_spec_text(const std::string& text) {
  try {
    const sweep::SweepSpec s = sweep::parse_spec(text, "fuzz.json", "/nonexistent-tlmgpu-fuzz");
    double inputs = 0;
    for (const auto& w : s.workloads)
      inputs += double(w.inputs.size());
    const double n =
        double(s.seeds.size()) * double(s.platforms.size()) * double(s.configs.size()) * inputs;
    if (n < 10000) (void)sweep::expand(s); // huge matrices are item 4's (sweep) guard
  } catch (const ConfigError&) {
  }
}

// `tlmgpu report`'s reader: depth-limited parse, schema check, render.
inline void results_text(const std::string& text) {
  try {
    const auto results = parse_json<nlohmann::ordered_json>(text, "results.json");
    sweep::check_results_schema(results, "results.json");
    (void)sweep::render_report(results);
  } catch (const ConfigError&) {
  }
}

} // namespace tlmgpu::fuzz
