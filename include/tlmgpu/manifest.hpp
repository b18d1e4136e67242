// manifest.json: the size and content hash (FNV-1a 64, tlmgpu/hash.hpp) of
// every file a run or a sweep wrote into a directory, written last. A reader
// (a resumed sweep, `report`) verifies the files it relies on against it, so
// a result that was cut short, damaged or edited after the fact is rerun or
// refused instead of trusted. FNV-1a detects accidents, not adversaries.
//
//   {"format": "tlmgpu-manifest-1", "hash": "fnv1a64",
//    "files": {"stats.json": {"bytes": 1234, "fnv1a64": "<16 hex digits>"}, ...}}
//
// Paths are relative to the directory, with '/' between levels.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tlmgpu {

inline constexpr const char* kManifestName = "manifest.json";

struct ManifestEntry {
  uint64_t bytes = 0;
  uint64_t fnv1a64 = 0;
  bool operator==(const ManifestEntry&) const = default;
};
using Manifest = std::map<std::string, ManifestEntry>;

// Size and hash of one file as it is on disk. Throws OutputError when it
// cannot be read.
ManifestEntry hash_file(const std::filesystem::path& file);

// Every regular file below `dir` (recursively) except manifest.json.
Manifest scan_directory(const std::filesystem::path& dir);

// Writes `m` as dir/manifest.json (atomically, fsynced).
void write_manifest(const std::filesystem::path& dir, const Manifest& m);

// Reads dir/manifest.json. On failure returns false and sets `problem`
// ("missing", "not a tlmgpu manifest", ...).
bool read_manifest(const std::filesystem::path& dir, Manifest& m, std::string& problem);

// Checks dir/manifest.json and every file it lists, plus that each of
// `required` is listed. Returns "" when all match, else one line naming the
// first file that does not and why ("<dir>/stats.json: 28672 bytes,
// manifest.json says 31011: changed or damaged since it was written").
std::string verify_manifest(const std::filesystem::path& dir,
                            const std::vector<std::string>& required = {});

} // namespace tlmgpu
