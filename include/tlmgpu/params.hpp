// Declare-once parameters.
//
// Every block's Spec declares its parameters in one template member:
//
//   struct L2Spec {
//     uint32_t ways = 0;
//     template <class V> void visit(V& v) {
//       v.param(ways, "ways", 24, Range{1, 256}, "", "associativity of one slice");
//     }
//     void derive();   // cross-parameter checks + derived geometry, once
//   };
//
// The same declaration is walked by different visitors: the strict JSON reader
// (config.hpp), the effective-config writer, and `tlmgpu describe`. A default or
// a range is therefore written exactly once (house style rule 3).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace tlmgpu {

// Raised for any platform/CLI configuration problem. `what()` is the single
// line shown to the user; it always names the full key path or file.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Inclusive numeric range of a parameter.
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

// One row of `tlmgpu describe`: everything a declaration says.
struct ParamRow {
  std::string path;  // full dotted key, e.g. "l2.ways"
  std::string type;  // "uint", "int", "float", "bool", "string", "choice"
  std::string def;   // default rendered as JSON text
  std::string unit;  // "cycles", "bytes", "MHz", ... or ""
  std::string range; // "[1, 256]" or "one of: a|b" or ""
  std::string description;
};

// Visitor that only records declarations (used by describe and by
// the reader to suggest the closest valid key).
class ParamLister {
public:
  explicit ParamLister(std::string prefix = "") : prefix_(std::move(prefix)) {}

  template <class T, class D>
  void param(T&, const char* name, D def, Range r, const char* unit, const char* desc) {
    ParamRow row;
    row.path = join(name);
    row.type = type_name<T>();
    row.def = render(static_cast<T>(def));
    row.unit = unit;
    row.range = render_range<T>(r);
    row.description = desc;
    rows_.push_back(std::move(row));
  }
  void text(std::string&, const char* name, const char* def, const char* desc) {
    rows_.push_back({join(name), "string", std::string("\"") + def + "\"", "", "", desc});
  }
  void choice(std::string&, const char* name, const char* def,
              std::initializer_list<const char*> options, const char* desc) {
    std::string opts;
    for (const char* o : options)
      opts += (opts.empty() ? "" : "|") + std::string(o);
    rows_.push_back(
        {join(name), "choice", std::string("\"") + def + "\"", "", "one of: " + opts, desc});
  }
  template <class S>
  void group(const char* name, S& sub) {
    ParamLister inner(join(name));
    sub.visit(inner);
    for (auto& r : inner.rows_)
      rows_.push_back(std::move(r));
  }
  const std::vector<ParamRow>& rows() const { return rows_; }

private:
  std::string join(const char* name) const {
    return prefix_.empty() ? std::string(name) : prefix_ + "." + name;
  }
  template <class T>
  static std::string type_name() {
    if constexpr (std::is_same_v<T, bool>)
      return "bool";
    else if constexpr (std::is_floating_point_v<T>)
      return "float";
    else if constexpr (std::is_unsigned_v<T>)
      return "uint";
    else
      return "int";
  }
  template <class T>
  static std::string render(T v) {
    if constexpr (std::is_same_v<T, bool>)
      return v ? "true" : "false";
    else if constexpr (std::is_floating_point_v<T>) {
      std::string s = std::to_string(v);
      while (s.size() > 1 && s.back() == '0')
        s.pop_back();
      if (!s.empty() && s.back() == '.') s.pop_back();
      return s;
    } else
      return std::to_string(v);
  }
  template <class T>
  static std::string render_range(Range r) {
    if constexpr (std::is_same_v<T, bool>)
      return "";
    else {
      auto f = [](double d) {
        if (d == std::numeric_limits<double>::infinity()) return std::string("inf");
        if (d == -std::numeric_limits<double>::infinity()) return std::string("-inf");
        return render<double>(d);
      };
      return "[" + f(r.min) + ", " + f(r.max) + "]";
    }
  }

  std::string prefix_;
  std::vector<ParamRow> rows_;
};

// Visitor that resets every field to its declared default.
struct DefaultSetter {
  template <class T, class D>
  void param(T& f, const char*, D def, Range, const char*, const char*) {
    f = static_cast<T>(def);
  }
  void text(std::string& f, const char*, const char* def, const char*) { f = def; }
  void choice(std::string& f, const char*, const char* def, std::initializer_list<const char*>,
              const char*) {
    f = def;
  }
  template <class S>
  void group(const char*, S& sub) {
    sub.visit(*this);
  }
};

// Collect the rows of a spec type (for `describe`).
template <class S>
std::vector<ParamRow> describe_rows(const char* prefix) {
  S spec{};
  ParamLister l(prefix);
  spec.visit(l);
  return l.rows();
}

// Fill a spec with its declared defaults (for tests and C++ composition).
template <class S>
S defaults() {
  S spec{};
  DefaultSetter d;
  spec.visit(d);
  return spec;
}

} // namespace tlmgpu
