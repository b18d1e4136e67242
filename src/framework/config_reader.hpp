// The strict reader of declared parameters and what it needs (origins of
// values, messages, suggestions), shared by the platform loader (config.cpp)
// and the node loader (node.cpp). Internal to src/framework.
#pragma once

#include "tlmgpu/config.hpp"
#include "tlmgpu/platform.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace tlmgpu::config_detail {

using json = nlohmann::json;

inline std::string join(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

// A value as the user wrote it, kept short enough for a one-line message.
inline std::string show(const json& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

inline std::string show_number(double d) {
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  std::ostringstream os;
  os.precision(15);
  os << d;
  return os.str();
}

// Which file (or "--set") each value of the merged document came from, keyed
// by dotted path; a path without an entry inherits its parent's origin.
class Origins {
public:
  void set(const std::string& path, const std::string& origin) {
    const std::string sub = path + ".";
    for (auto it = by_path_.lower_bound(sub);
         it != by_path_.end() && it->first.compare(0, sub.size(), sub) == 0;)
      it = by_path_.erase(it);
    by_path_[path] = origin;
  }
  // Where the values at or below `path` came from ("a.json", "a.json and
  // --set"); of(path) when nothing below it was set explicitly.
  std::string below(const std::string& path) const {
    std::set<std::string> found;
    if (auto it = by_path_.find(path); it != by_path_.end()) found.insert(it->second);
    const std::string sub = path + ".";
    for (auto it = by_path_.lower_bound(sub);
         it != by_path_.end() && it->first.compare(0, sub.size(), sub) == 0; ++it)
      found.insert(it->second);
    if (found.empty()) return of(path);
    std::string s;
    for (const std::string& o : found)
      s += (s.empty() ? "" : " and ") + o;
    return s;
  }
  std::string of(std::string path) const {
    for (;;) {
      if (auto it = by_path_.find(path); it != by_path_.end()) return it->second;
      if (path.empty()) return "";
      auto dot = path.rfind('.');
      path = dot == std::string::npos ? "" : path.substr(0, dot);
    }
  }

private:
  std::map<std::string, std::string> by_path_;
};

[[noreturn]] inline void fail(const std::string& origin, const std::string& path,
                              const std::string& msg) {
  std::string s = origin.empty() ? "" : origin + ": ";
  if (!path.empty()) s += path + ": ";
  throw ConfigError(s + msg);
}

// Every declared parameter path of a platform, in declaration order.
inline const std::vector<std::string>& declared_paths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> out;
    for (const ParamRow& r : describe_rows<PlatformSpec>(""))
      out.push_back(r.path);
    return out;
  }();
  return paths;
}

inline std::string leaf_of(const std::string& path) {
  auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// " (did you mean 'x'?)", or "" when nothing plausible exists. Looks at the
// keys of the same level first, then at the same name elsewhere in the tree.
inline std::string suggestion(const std::string& prefix, const std::string& key,
                              const std::vector<std::string>& same_level) {
  if (std::string m = closest_match(key, same_level); !m.empty())
    return " (did you mean '" + join(prefix, m) + "'?)";
  std::vector<std::string> elsewhere;
  for (const std::string& p : declared_paths())
    if (leaf_of(p) == key && p != join(prefix, key)) elsewhere.push_back("'" + p + "'");
  if (elsewhere.empty()) return "";
  std::string s = " (did you mean ";
  for (std::size_t i = 0; i < elsewhere.size(); ++i)
    s += (i == 0 ? "" : i + 1 == elsewhere.size() ? " or " : ", ") + elsewhere[i];
  return s + "?)";
}

// The strict reader: every declared key is read (missing -> declared default),
// type- and range-checked; finish() rejects what no declaration read.
class Reader {
public:
  Reader(const json* obj, std::string prefix, const Origins& origins)
      : obj_(obj), prefix_(std::move(prefix)), origins_(origins) {}

  template <class T, class D>
  void param(T& f, const char* name, D def, Range r, const char*, const char*) {
    const json* v = find(name);
    f = v ? convert<T>(*v, name, r) : static_cast<T>(def);
  }
  void text(std::string& f, const char* name, const char* def, const char*) {
    const json* v = find(name);
    if (v && !v->is_string()) error(name, "expected a string, got " + show(*v));
    f = v ? v->get<std::string>() : std::string(def);
  }
  void choice(std::string& f, const char* name, const char* def,
              std::initializer_list<const char*> options, const char*) {
    const json* v = find(name);
    if (!v) {
      f = def;
      return;
    }
    for (const char* o : options)
      if (v->is_string() && v->get<std::string>() == o) {
        f = o;
        return;
      }
    std::string opts;
    for (const char* o : options)
      opts += (opts.empty() ? "\"" : ", \"") + std::string(o) + "\"";
    error(name, "expected one of " + opts + ", got " + show(*v));
  }
  template <class S>
  void group(const char* name, S& sub) {
    const json* v = find(name);
    if (v && !v->is_object())
      error(name, "expected an object (a group of parameters), got " + show(*v));
    Reader inner(v, join(prefix_, name), origins_);
    sub.visit(inner);
    inner.finish();
  }

  void finish() const {
    if (!obj_) return;
    for (const auto& item : obj_->items()) {
      if (std::find(declared_.begin(), declared_.end(), item.key()) != declared_.end()) continue;
      const std::string path = join(prefix_, item.key());
      const std::string origin = origins_.of(path);
      throw ConfigError("unknown key '" + path + "'" + (origin.empty() ? "" : " in " + origin) +
                        suggestion(prefix_, item.key(), declared_));
    }
  }

private:
  const json* find(const char* name) {
    declared_.emplace_back(name);
    if (!obj_) return nullptr;
    auto it = obj_->find(name);
    return it == obj_->end() ? nullptr : &*it;
  }
  [[noreturn]] void error(const char* name, const std::string& msg) const {
    const std::string path = join(prefix_, name);
    fail(origins_.of(path), path, msg);
  }
  [[noreturn]] void out_of_range(const char* name, const json& v, double lo, double hi) const {
    error(name, show(v) + " is out of range [" + show_number(lo) + ", " + show_number(hi) + "]");
  }

  template <class T>
  T convert(const json& v, const char* name, Range r) const {
    if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) error(name, "expected true or false, got " + show(v));
      return v.get<bool>();
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!v.is_number()) error(name, "expected a number, got " + show(v));
      const double d = v.get<double>();
      if (d < r.min || d > r.max) out_of_range(name, v, r.min, r.max);
      return static_cast<T>(d);
    } else if constexpr (std::is_unsigned_v<T>) {
      const bool ok = v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
      if (!ok) error(name, "expected an unsigned integer, got " + show(v));
      const uint64_t u = v.get<uint64_t>();
      const double hi = std::min(r.max, double(std::numeric_limits<T>::max()));
      if (double(u) < r.min || double(u) > hi || u > std::numeric_limits<T>::max())
        out_of_range(name, v, std::max(r.min, 0.0), hi);
      return static_cast<T>(u);
    } else {
      if (!v.is_number_integer() ||
          (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)))
        error(name, "expected an integer, got " + show(v));
      const int64_t i = v.get<int64_t>();
      const double lo = std::max(r.min, double(std::numeric_limits<T>::min()));
      const double hi = std::min(r.max, double(std::numeric_limits<T>::max()));
      if (double(i) < lo || double(i) > hi || i < std::numeric_limits<T>::min() ||
          i > std::numeric_limits<T>::max())
        out_of_range(name, v, lo, hi);
      return static_cast<T>(i);
    }
  }

  const json* obj_;
  std::string prefix_;
  const Origins& origins_;
  std::vector<std::string> declared_;
};

// The writer: the spec back into a document, nested by group.
struct Writer {
  json& j;
  template <class T, class D>
  void param(T& f, const char* name, D, Range, const char*, const char*) {
    j[name] = f;
  }
  void text(std::string& f, const char* name, const char*, const char*) { j[name] = f; }
  void choice(std::string& f, const char* name, const char*, std::initializer_list<const char*>,
              const char*) {
    j[name] = f;
  }
  template <class S>
  void group(const char* name, S& sub) {
    Writer w{j[name] = json::object()};
    sub.visit(w);
  }
};

} // namespace tlmgpu::config_detail
