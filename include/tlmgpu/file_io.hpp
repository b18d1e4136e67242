// Output files written whole or not at all: a reader (a resumed sweep, the
// report, a user's script) never sees a half-written file.
#pragma once

#include <filesystem>
#include <string>

namespace tlmgpu {

// Writes `text` to `path.tmp`, flushes it and renames it over `path`.
// Throws std::runtime_error naming the file if any step fails.
void write_file_atomic(const std::filesystem::path& path, const std::string& text);

} // namespace tlmgpu
