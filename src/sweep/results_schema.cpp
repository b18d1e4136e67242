#include "src/sweep/results_schema.hpp"

#include "tlmgpu/params.hpp"

#include <functional>

namespace tlmgpu::sweep {
namespace {

using ojson = nlohmann::ordered_json;

class Schema {
public:
  explicit Schema(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& msg) const {
    throw ConfigError(file_ + ": " + (path.empty() ? "" : path + ": ") + msg);
  }

  void object(const ojson& v, const std::string& path) const {
    if (!v.is_object()) fail(path, "expected an object, got " + show(v));
  }
  // The member `key` of the object `v` at `path`, which must exist.
  const ojson& member(const ojson& v, const std::string& path, const char* key) const {
    object(v, path);
    const auto it = v.find(key);
    if (it == v.end()) fail(path, std::string("missing key '") + key + "'");
    return *it;
  }
  void string(const ojson& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string, got " + show(v));
  }
  void string_member(const ojson& v, const std::string& path, const char* key) const {
    string(member(v, path, key), join(path, key));
  }
  void unsigned_number(const ojson& v, const std::string& path) const {
    if (!v.is_number_unsigned()) fail(path, "expected an unsigned integer, got " + show(v));
  }
  // An array at `path`, each element checked by `each(element, its path)`.
  void array(const ojson& v, const std::string& path,
             const std::function<void(const ojson&, const std::string&)>& each) const {
    if (!v.is_array()) fail(path, "expected an array, got " + show(v));
    for (std::size_t i = 0; i < v.size(); ++i)
      each(v[i], path + "[" + std::to_string(i) + "]");
  }
  void strings(const ojson& v, const std::string& path) const {
    array(v, path, [&](const ojson& e, const std::string& p) { string(e, p); });
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

private:
  static std::string show(const ojson& v) {
    std::string s = v.dump();
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
  }

  std::string file_;
};

void check_point(const Schema& s, const ojson& row, const std::string& path) {
  for (const char* key : {"platform", "config", "workload", "input", "point", "status", "check"})
    s.string_member(row, path, key);
  s.unsigned_number(s.member(row, path, "seed"), path + ".seed");
  const ojson& code = s.member(row, path, "exit_code");
  if (!code.is_null() && !code.is_number_integer())
    s.fail(path + ".exit_code", "expected an integer or null, got " + code.dump());
  const ojson& metrics = s.member(row, path, "metrics");
  s.object(metrics, path + ".metrics");
  for (const auto& [k, v] : metrics.items())
    if (!v.is_number()) s.fail(path + ".metrics." + k, "expected a number, got " + v.dump());
  if (row.contains("error")) s.string(row["error"], path + ".error");
}

} // namespace

void check_results_schema(const ojson& r, const std::string& file) {
  const Schema s(file);
  s.object(r, "");
  for (const char* key : {"name", "timing", "baseline"})
    s.string_member(r, "", key);
  for (const char* key : {"platforms", "metrics"})
    s.strings(s.member(r, "", key), key);
  s.array(s.member(r, "", "seeds"), "seeds",
          [&](const ojson& e, const std::string& p) { s.unsigned_number(e, p); });
  s.array(s.member(r, "", "configs"), "configs", [&](const ojson& c, const std::string& p) {
    s.string_member(c, p, "label");
    s.string_member(c, p, "timing");
    s.object(s.member(c, p, "set"), p + ".set");
    if (c.contains("args")) s.object(c["args"], p + ".args");
  });
  s.array(s.member(r, "", "workloads"), "workloads", [&](const ojson& w, const std::string& p) {
    s.string_member(w, p, "label");
    s.strings(s.member(w, p, "inputs"), p + ".inputs");
  });
  s.array(s.member(r, "", "points"), "points",
          [&](const ojson& row, const std::string& p) { check_point(s, row, p); });
  if (r.contains("figures"))
    s.array(r["figures"], "figures", [&](const ojson& f, const std::string& p) {
      for (const char* key : {"title", "caption", "metric"})
        s.string_member(f, p, key);
      s.strings(s.member(f, p, "configs"), p + ".configs");
    });
  if (r.contains("topologies")) {
    s.object(r["topologies"], "topologies");
    for (const auto& [k, v] : r["topologies"].items())
      s.string(v, "topologies." + k);
  }
}

} // namespace tlmgpu::sweep
