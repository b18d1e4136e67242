#include "tlmgpu/manifest.hpp"

#include "tlmgpu/file_io.hpp"
#include "tlmgpu/hash.hpp"
#include "tlmgpu/json_limits.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace tlmgpu {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFormat = "tlmgpu-manifest-1";

bool parse_hex(const std::string& s, uint64_t& v) {
  if (s.size() != 16) return false;
  v = 0;
  for (char c : s) {
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return false;
    v = v << 4 | uint64_t(d);
  }
  return true;
}

bool read_entry(const nlohmann::json& j, ManifestEntry& e) {
  if (!j.is_object() || !j.contains("bytes") || !j["bytes"].is_number_unsigned() ||
      !j.contains("fnv1a64") || !j["fnv1a64"].is_string())
    return false;
  e.bytes = j["bytes"].get<uint64_t>();
  return parse_hex(j["fnv1a64"].get<std::string>(), e.fnv1a64);
}

} // namespace

ManifestEntry hash_file(const fs::path& file) {
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  // The reason (errno of the failed open or read), not only the name.
  const auto reason = [] { return errno ? std::string(": ") + std::strerror(errno) : ""; };
  if (!in) throw OutputError("cannot read '" + file.string() + "'" + reason());
  ManifestEntry e;
  e.fnv1a64 = kFnvOffset;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), std::streamsize(buf.size()));
    const auto n = std::size_t(in.gcount());
    e.fnv1a64 = fnv1a64(buf.data(), n, e.fnv1a64);
    e.bytes += n;
  }
  if (in.bad()) throw OutputError("cannot read '" + file.string() + "'" + reason());
  return e;
}

Manifest scan_directory(const fs::path& dir) {
  Manifest m;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string rel = it->path().lexically_relative(dir).generic_string();
    if (rel != kManifestName) m[rel] = hash_file(it->path());
  }
  if (ec) throw write_error(dir, ec.value());
  return m;
}

void write_manifest(const fs::path& dir, const Manifest& m) {
  nlohmann::json files = nlohmann::json::object();
  for (const auto& [name, e] : m)
    files[name] = {{"bytes", e.bytes}, {"fnv1a64", hash_hex(e.fnv1a64)}};
  const nlohmann::json j = {{"format", kFormat}, {"hash", "fnv1a64"}, {"files", files}};
  write_file_atomic(dir / kManifestName, j.dump(2) + "\n");
}

bool read_manifest(const fs::path& dir, Manifest& m, std::string& problem) {
  std::string text;
  if (!read_text_file((dir / kManifestName).string(), text)) {
    problem = "missing or unreadable";
    return false;
  }
  const nlohmann::json j = try_parse_json(text);
  if (!j.is_object() || j.value("format", "") != kFormat || !j.contains("files") ||
      !j["files"].is_object()) {
    problem = "not a " + std::string(kFormat) + " file (damaged?)";
    return false;
  }
  m.clear();
  for (const auto& [name, v] : j["files"].items())
    if (!read_entry(v, m[name])) {
      problem = "files." + name + ": expected {\"bytes\": N, \"fnv1a64\": \"<16 hex digits>\"}";
      return false;
    }
  return true;
}

std::string verify_manifest(const fs::path& dir, const std::vector<std::string>& required) {
  Manifest m;
  std::string problem;
  const std::string shown_manifest = (dir / kManifestName).string();
  if (!read_manifest(dir, m, problem)) return shown_manifest + ": " + problem;
  for (const std::string& r : required)
    if (!m.count(r)) return shown_manifest + ": does not list " + r;
  for (const auto& [name, want] : m) {
    const fs::path file = dir / name;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
      return file.string() + ": missing (listed in " + kManifestName + ")";
    ManifestEntry got;
    try {
      got = hash_file(file);
    } catch (const OutputError& e) {
      return e.what();
    }
    if (got == want) continue;
    const std::string what = got.bytes != want.bytes
                                 ? std::to_string(got.bytes) + " bytes, " + kManifestName +
                                       " says " + std::to_string(want.bytes)
                                 : "content hash " + hash_hex(got.fnv1a64) + ", " + kManifestName +
                                       " says " + hash_hex(want.fnv1a64);
    return file.string() + ": " + what + ": changed or damaged since it was written";
  }
  return "";
}

} // namespace tlmgpu
