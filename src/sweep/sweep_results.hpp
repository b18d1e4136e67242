// What a sweep leaves on disk besides the runs' own files: a completion
// marker per point (point.json) and the merged results (results.json,
// results.csv), one row per point. Kernel-free.
#pragma once

#include "src/sweep/sweep_spec.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace tlmgpu::sweep {

// How one run of a point ended.
struct Outcome {
  std::string status;     // passed | failed | timeout | interrupted (| corrupt: write_marker)
  int exit_code = -1;     // when it exited
  int signal = 0;         // when a signal ended it
  double seconds = 0;     // wall time
  std::string error_tail; // last lines of its stderr when it did not pass
};

// point.json, written atomically (temp file + rename) after the run ended.
// It records the run's arguments so that a point whose spec changed is run
// again rather than reused, and for a passed run the summary the merge needs
// (stats.json's check and metrics), so stats.json may be deleted afterwards
// (keep_stats false). A passed run is trusted only when its files match its
// manifest.json (tlmgpu/manifest.hpp); otherwise it is recorded as "corrupt"
// with the mismatch as its error. point.json then joins the manifest.
// Returns the status recorded.
std::string write_marker(const std::filesystem::path& point_dir,
                         const std::vector<std::string>& args, const Outcome& o,
                         bool keep_stats = true);

// True when the point passed before with exactly these arguments, its
// summary is in the marker (or, for older markers, its stats.json is still
// there), and every file its manifest.json lists, point.json among them, is
// as it was written: the sweep skips it. `why`: the mismatch, when a point
// that had passed is no longer trusted (it runs again).
bool point_done(const std::filesystem::path& point_dir, const std::vector<std::string>& args,
                std::string* why = nullptr);

// The merged results: the spec (for the report) and one row per point in
// matrix order with its coordinates, status, check and every number of the
// run's stats.json "metrics" (or "simulated.cycles" as cycles without it).
nlohmann::ordered_json merge_results(const SweepSpec& spec, const std::vector<Point>& points,
                                     const std::filesystem::path& points_root);
// The same in two steps, so that a sweep keeps the rows in memory and
// updates one as its point ends (results merged incrementally): one point's
// row from its marker, and the document from the rows in matrix order.
nlohmann::ordered_json result_row(const SweepSpec& spec, const Point& p,
                                  const std::filesystem::path& points_root);
nlohmann::ordered_json assemble_results(const SweepSpec& spec,
                                        const std::vector<nlohmann::ordered_json>& rows,
                                        const std::filesystem::path& points_root);

// The rows as CSV: coordinates, point, status, check, exit_code, then the
// metric names in sorted order (the union over all rows; empty = absent).
std::string results_csv(const nlohmann::ordered_json& results);

// Last `max_lines` lines of a text file (at most ~2 KB), "" when unreadable.
std::string tail_of_file(const std::filesystem::path& p, std::size_t max_lines = 8);

} // namespace tlmgpu::sweep
