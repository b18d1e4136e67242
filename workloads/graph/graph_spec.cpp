// Generator specs: the parameter table (each parameter declared once, with
// its default and meaning, and read by both the parser and generator_help()).
// load_graph(), which also takes files, is in load_graph.cpp.
#include "workloads/graph/generators.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <vector>

namespace tlmgpu::graph {

namespace {

struct ParamDecl {
  std::string_view name;
  std::string_view default_value; // empty: required
  std::string_view help;
};

class SpecValues;

struct GeneratorDecl {
  std::string_view name;
  std::string_view summary;
  std::vector<ParamDecl> params;
  CsrGraph (*build)(const SpecValues&, const GraphBuildOptions&);
};

class SpecValues {
public:
  SpecValues(std::string_view spec, const GeneratorDecl& decl,
             std::map<std::string, std::string> given)
      : spec_(spec), decl_(decl), given_(std::move(given)) {}

  uint64_t u64(std::string_view name) const {
    const std::string text = value(name);
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size())
      fail("parameter '" + std::string(name) + "' must be a non-negative integer, found '" + text +
           "'");
    return v;
  }
  double real(std::string_view name) const {
    const std::string text = value(name);
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size())
      fail("parameter '" + std::string(name) + "' must be a number, found '" + text + "'");
    return v;
  }
  bool flag(std::string_view name) const {
    const uint64_t v = u64(name);
    if (v > 1) fail("parameter '" + std::string(name) + "' must be 0 or 1");
    return v == 1;
  }
  Weight weight(std::string_view name) const {
    const uint64_t v = u64(name);
    if (v > std::numeric_limits<Weight>::max())
      fail("parameter '" + std::string(name) + "' does not fit 32 bits");
    return static_cast<Weight>(v);
  }
  [[noreturn]] void fail(const std::string& problem) const {
    throw GraphSpecError(std::string(spec_) + ": " + problem);
  }

private:
  std::string value(std::string_view name) const {
    if (auto it = given_.find(std::string(name)); it != given_.end()) return it->second;
    for (const ParamDecl& p : decl_.params)
      if (p.name == name) {
        if (p.default_value.empty()) fail("missing required parameter '" + std::string(name) + "'");
        return std::string(p.default_value);
      }
    fail("internal: undeclared parameter '" + std::string(name) + "'");
  }

  std::string_view spec_;
  const GeneratorDecl& decl_;
  std::map<std::string, std::string> given_;
};

const std::vector<GeneratorDecl>& generators() {
  static const std::vector<GeneratorDecl> table = {
      {"rmat",
       "R-MAT/Kronecker, Graph500 parameters; ef x 2^scale arcs",
       {{"scale", "", "log2 of the vertex count"},
        {"ef", "16", "edge factor: arcs per vertex"},
        {"a", "0.57", "quadrant probability a (Graph500)"},
        {"b", "0.19", "quadrant probability b (Graph500)"},
        {"c", "0.19", "quadrant probability c (Graph500); d = 1 - a - b - c"},
        {"permute", "1", "1: shuffle vertex ids as Graph500 does"},
        {"seed", "1", "random seed"},
        {"wmax", "0", "0: unweighted, else weights uniform in 1..wmax"}},
       [](const SpecValues& v, const GraphBuildOptions& o) {
         const uint64_t scale = v.u64("scale");
         if (scale > 31) v.fail("parameter 'scale' above 31");
         return generate_rmat({static_cast<unsigned>(scale), v.u64("ef"), v.real("a"), v.real("b"),
                               v.real("c"), v.flag("permute"), v.u64("seed"), v.weight("wmax")},
                              o);
       }},
      {"uniform",
       "m arcs with uniformly random endpoints",
       {{"n", "", "vertex count"},
        {"m", "", "arc count"},
        {"seed", "1", "random seed"},
        {"wmax", "0", "0: unweighted, else weights uniform in 1..wmax"}},
       [](const SpecValues& v, const GraphBuildOptions& o) {
         return generate_uniform(v.u64("n"), v.u64("m"), v.u64("seed"), v.weight("wmax"), o);
       }},
      {"grid",
       "w x h 4-neighbour grid, undirected",
       {{"w", "", "width"},
        {"h", "", "height"},
        {"seed", "1", "random seed (weights only)"},
        {"wmax", "0", "0: unweighted, else weights uniform in 1..wmax"}},
       [](const SpecValues& v, const GraphBuildOptions& o) {
         return generate_grid(v.u64("w"), v.u64("h"), v.u64("seed"), v.weight("wmax"), o);
       }},
      {"ba",
       "Barabasi-Albert preferential attachment, undirected",
       {{"n", "", "vertex count"},
        {"k", "4", "edges added per new vertex"},
        {"seed", "1", "random seed"},
        {"wmax", "0", "0: unweighted, else weights uniform in 1..wmax"}},
       [](const SpecValues& v, const GraphBuildOptions& o) {
         return generate_ba(v.u64("n"), v.u64("k"), v.u64("seed"), v.weight("wmax"), o);
       }},
  };
  return table;
}

std::string known_generators() {
  std::string names;
  for (const GeneratorDecl& g : generators())
    names += (names.empty() ? "" : ", ") + std::string(g.name);
  return names;
}

} // namespace

CsrGraph generate_from_spec(std::string_view spec, const GraphBuildOptions& options) {
  auto fail = [&](const std::string& problem) -> void {
    throw GraphSpecError(std::string(spec) + ": " + problem);
  };
  constexpr std::string_view kPrefix = "gen:";
  if (!spec.starts_with(kPrefix)) fail("generator specs start with 'gen:'");
  const std::string_view body = spec.substr(kPrefix.size());
  const size_t q = body.find('?');
  const std::string_view name = body.substr(0, q);
  const auto decl = std::find_if(generators().begin(), generators().end(),
                                 [&](const GeneratorDecl& g) { return g.name == name; });
  if (decl == generators().end())
    fail("unknown generator '" + std::string(name) + "' (known: " + known_generators() + ")");

  std::map<std::string, std::string> given;
  std::string_view query = q == std::string_view::npos ? "" : body.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
    const size_t eq = item.find('=');
    if (item.empty() || eq == 0 || eq == std::string_view::npos)
      fail("expected 'param=value', found '" + std::string(item) + "'");
    const std::string key(item.substr(0, eq));
    const bool declared = std::any_of(decl->params.begin(), decl->params.end(),
                                      [&](const ParamDecl& p) { return p.name == key; });
    if (!declared) {
      std::string allowed;
      for (const ParamDecl& p : decl->params)
        allowed += " " + std::string(p.name);
      fail("unknown parameter '" + key + "' for generator '" + std::string(name) +
           "' (allowed:" + allowed + ")");
    }
    if (!given.emplace(key, std::string(item.substr(eq + 1))).second)
      fail("parameter '" + key + "' given twice");
  }
  check_limits(options);
  return decl->build(SpecValues(spec, *decl, std::move(given)), options);
}

std::string generator_help() {
  std::string out;
  for (const GeneratorDecl& g : generators()) {
    out += "gen:" + std::string(g.name) + "  " + std::string(g.summary) + "\n";
    for (const ParamDecl& p : g.params)
      out += "    " + std::string(p.name) + "=" +
             (p.default_value.empty() ? std::string("<required>") : std::string(p.default_value)) +
             "  " + std::string(p.help) + "\n";
  }
  return out;
}

} // namespace tlmgpu::graph
