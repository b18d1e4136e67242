// The sweep spec reader. Strict like the platform reader (house style rule 4):
// a typo in a spec must fail before hours of simulation, not be ignored.
// Uses ordered_json because the order of configs and workloads is the order
// of the bars and groups in the report.
#include "src/sweep/sweep_spec.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/json_limits.hpp"
#include "tlmgpu/params.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_set>

namespace tlmgpu::sweep {
namespace {

using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

const char* const kTimings[] = {"functional", "lt", "at"};

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string show(const ojson& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// nlohmann keeps the last of duplicate keys silently; a spec must not. Also
// turns the library's parse errors into "file:line:col: malformed JSON: ...".
ojson parse_strict(const std::string& text, const std::string& file) {
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;
    std::size_t index = 0;
  };
  std::vector<Frame> stack;
  auto where = [&] {
    std::string p;
    for (const Frame& f : stack)
      p = f.object ? join(p, f.key) : p + "[" + std::to_string(f.index) + "]";
    return p;
  };
  auto element_done = [&] {
    if (!stack.empty() && !stack.back().object) ++stack.back().index;
  };
  auto check = [&](int depth, ojson::parse_event_t ev, ojson& parsed) {
    check_json_depth(depth, ev, file); // show() and the copies recurse per level
    switch (ev) {
    case ojson::parse_event_t::object_start:
    case ojson::parse_event_t::array_start:
      stack.push_back({ev == ojson::parse_event_t::object_start, {}, {}});
      break;
    case ojson::parse_event_t::object_end:
    case ojson::parse_event_t::array_end:
      stack.pop_back();
      element_done();
      break;
    case ojson::parse_event_t::key:
      stack.back().key = parsed.get<std::string>();
      if (!stack.back().keys.insert(stack.back().key).second)
        throw ConfigError(file + ": " + where() + ": duplicate key");
      break;
    case ojson::parse_event_t::value:
      element_done();
      break;
    }
    return true;
  };
  try {
    return ojson::parse(text, check);
  } catch (const ojson::parse_error& e) {
    throw malformed_json(file, text, e.byte, e.what());
  } catch (const ojson::out_of_range& e) { // a number beyond a double (found by fuzzing)
    throw malformed_json(file, text, 0, e.what());
  }
}

// Typed access to the document with the file and key path in every error.
class Reader {
public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& msg) const {
    throw ConfigError(file_ + ": " + (path.empty() ? "" : path + ": ") + msg);
  }

  void only_keys(const ojson& obj, const std::string& path,
                 const std::vector<std::string>& allowed) const {
    for (const auto& [k, v] : obj.items()) {
      if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
      const std::string m = closest_match(k, allowed);
      std::string list;
      for (const std::string& a : allowed)
        list += (list.empty() ? "" : ", ") + a;
      fail(join(path, k), "unknown key" + (m.empty() ? "" : " (did you mean '" + m + "'?)") +
                              "; expected one of: " + list);
    }
  }
  const ojson& object(const ojson& v, const std::string& path) const {
    if (!v.is_object()) fail(path, "expected an object, got " + show(v));
    return v;
  }
  const ojson& list(const ojson& v, const std::string& path) const {
    if (!v.is_array()) fail(path, "expected a list, got " + show(v));
    if (v.empty()) fail(path, "must not be empty");
    return v;
  }
  std::string text(const ojson& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string, got " + show(v));
    const std::string s = v.get<std::string>();
    if (s.empty()) fail(path, "must not be empty");
    return s;
  }
  std::string timing(const ojson& v, const std::string& path) const {
    const std::string s = text(v, path);
    for (const char* t : kTimings)
      if (s == t) return s;
    fail(path, "expected one of functional, lt, at, got '" + s + "'");
  }
  // A scalar as command-line text. `bool_as_int`: workload arguments take
  // 0/1; platform parameters take true/false.
  std::string scalar(const ojson& v, const std::string& path, bool bool_as_int) const {
    if (v.is_boolean())
      return v.get<bool>() ? (bool_as_int ? "1" : "true") : (bool_as_int ? "0" : "false");
    if (v.is_number()) return v.dump();
    if (v.is_string()) return v.get<std::string>();
    fail(path, "expected a number, boolean or string, got " + show(v));
  }

private:
  std::string file_;
};

// --set parses its value as JSON when it can; a string that would parse as
// something else ("8", "true") is quoted so it stays a string.
std::string set_value(const ojson& v, const std::string& s) {
  if (!v.is_string()) return s;
  return ojson::accept(s) ? ojson(s).dump() : s;
}

// Nested objects become dotted keys: {"lab": {"entries": 8}} == {"lab.entries": 8}.
void flatten(const Reader& r, const ojson& obj, const std::string& prefix, const std::string& path,
             KeyValues& out) {
  for (const auto& [k, v] : obj.items()) {
    if (k.empty()) r.fail(path, "empty parameter name");
    const std::string key = join(prefix, k), at = join(path, k);
    if (v.is_object()) {
      flatten(r, v, key, at, out);
      continue;
    }
    for (const auto& [seen, _] : out)
      if (seen == key) r.fail(at, "parameter '" + key + "' is given twice");
    out.emplace_back(key, set_value(v, r.scalar(v, at, false)));
  }
}

// "gen..." is a generator spec; "scheme:path" (digits:...) and plain paths are
// files, resolved against the spec's directory and required to exist.
std::string resolve_input(const Reader& r, const std::string& in, const fs::path& base,
                          const std::string& path) {
  if (in == "gen" || in.rfind("gen:", 0) == 0) return in;
  const std::size_t cut = has_scheme(in) ? in.find(':') + 1 : 0;
  fs::path p(in.substr(cut));
  if (p.is_relative()) p = base / p;
  p = p.lexically_normal();
  std::error_code ec;
  if (!fs::exists(p, ec)) r.fail(path, "no such input file '" + p.string() + "'");
  return in.substr(0, cut) + p.string();
}

SweepConfig read_config(const Reader& r, const std::string& label, const ojson& v,
                        const std::string& path) {
  if (label.empty()) r.fail(path, "empty config label");
  SweepConfig c;
  c.label = label;
  for (const auto& [k, x] : r.object(v, path).items()) {
    if (k == "timing") {
      c.timing = r.timing(x, join(path, k));
      continue;
    }
    if (k == "args") { // workload arguments of this config (a program's variant)
      const std::string ap = join(path, k);
      for (const auto& [a, y] : r.object(x, ap).items()) {
        if (a == "input") r.fail(join(ap, a), "inputs belong to a workload, not a config");
        c.args.emplace_back(a, r.scalar(y, join(ap, a), true));
      }
      continue;
    }
    flatten(r, ojson::object({{k, x}}), "", path, c.sets);
  }
  return c;
}

SweepWorkload read_workload(const Reader& r, const ojson& v, const std::string& path,
                            const fs::path& base) {
  r.object(v, path);
  r.only_keys(v, path, {"label", "workload", "args", "inputs"});
  SweepWorkload w;
  if (!v.contains("workload")) r.fail(path, "missing key 'workload'");
  w.workload = r.text(v["workload"], join(path, "workload"));
  w.label = v.contains("label") ? r.text(v["label"], join(path, "label")) : w.workload;
  std::vector<std::pair<std::string, std::string>> inputs; // written, key path
  if (v.contains("args")) {
    const std::string ap = join(path, "args");
    for (const auto& [k, x] : r.object(v["args"], ap).items()) {
      const std::string s = r.scalar(x, join(ap, k), true);
      if (k == "input")
        inputs.emplace_back(s, join(ap, k));
      else
        w.args.emplace_back(k, s);
    }
  }
  if (v.contains("inputs")) {
    const std::string ip = join(path, "inputs");
    if (!inputs.empty()) r.fail(ip, "give either 'inputs' or 'args.input', not both");
    const ojson& list = r.list(v["inputs"], ip);
    std::unordered_set<std::string> seen; // a list scan per input is quadratic
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = ip + "[" + std::to_string(i) + "]";
      const std::string s = r.text(list[i], at);
      if (!seen.insert(s).second) r.fail(at, "input '" + s + "' is listed twice");
      inputs.emplace_back(s, at);
    }
  }
  if (inputs.empty()) inputs.emplace_back("", "");
  for (const auto& [s, at] : inputs) {
    w.inputs.push_back(s);
    w.resolved_inputs.push_back(s.empty() ? s : resolve_input(r, s, base, at));
  }
  return w;
}

// Where the points run; sbatch's own syntax checks partition, time and mem.
SweepSpec::Backend read_backend(const Reader& r, const ojson& v, const fs::path& base) {
  r.object(v, "backend");
  r.only_keys(v, "backend", {"type", "partition", "time", "mem", "account", "sshloginfile"});
  SweepSpec::Backend b;
  const auto get = [&](const char* key, std::string& out) {
    if (v.contains(key)) out = r.text(v[key], join("backend", key));
  };
  get("type", b.type);
  if (!b.type.empty() && b.type != "local" && b.type != "parallel" && b.type != "slurm")
    r.fail("backend.type", "expected one of local, parallel, slurm, got '" + b.type + "'");
  get("partition", b.partition);
  get("time", b.time);
  get("mem", b.mem);
  get("account", b.account);
  get("sshloginfile", b.sshloginfile);
  if (!b.sshloginfile.empty() && fs::path(b.sshloginfile).is_relative())
    b.sshloginfile = (base / b.sshloginfile).lexically_normal().string();
  return b;
}

SweepFigure read_figure(const Reader& r, const ojson& v, const std::string& path,
                        const std::vector<std::string>& labels) {
  r.object(v, path);
  r.only_keys(v, path, {"title", "caption", "metric", "configs"});
  for (const char* k : {"title", "configs"})
    if (!v.contains(k)) r.fail(path, std::string("missing key '") + k + "'");
  SweepFigure f;
  f.title = r.text(v["title"], join(path, "title"));
  f.caption = v.contains("caption") ? r.text(v["caption"], join(path, "caption")) : "";
  f.metric = v.contains("metric") ? r.text(v["metric"], join(path, "metric")) : "cycles";
  const std::string cp = join(path, "configs");
  const ojson& list = r.list(v["configs"], cp);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = cp + "[" + std::to_string(i) + "]";
    const std::string c = r.text(list[i], at);
    if (std::find(labels.begin(), labels.end(), c) == labels.end()) {
      const std::string m = closest_match(c, labels);
      r.fail(at, "'" + c + "' is not one of the configs" +
                     (m.empty() ? "" : " (did you mean '" + m + "'?)"));
    }
    if (std::find(f.configs.begin(), f.configs.end(), c) != f.configs.end())
      r.fail(at, "config '" + c + "' is listed twice");
    f.configs.push_back(c);
  }
  return f;
}

} // namespace

SweepSpec parse_spec(const std::string& text, const std::string& file, const fs::path& base_dir) {
  const Reader r(file);
  const ojson doc = parse_strict(text, file);
  r.object(doc, "");
  r.only_keys(doc, "",
              {"name", "timing", "baseline", "platforms", "configs", "workloads", "seeds",
               "keep_stats", "backend", "figures"});
  for (const char* k : {"platforms", "configs", "workloads"})
    if (!doc.contains(k)) r.fail("", std::string("missing key '") + k + "'");

  SweepSpec s;
  s.file = file;
  s.name = doc.contains("name") ? r.text(doc["name"], "name") : fs::path(file).stem().string();
  s.timing = doc.contains("timing") ? r.timing(doc["timing"], "timing") : "lt";
  if (doc.contains("keep_stats")) {
    if (!doc["keep_stats"].is_boolean())
      r.fail("keep_stats", "expected true or false, got " + show(doc["keep_stats"]));
    s.keep_stats = doc["keep_stats"].get<bool>();
  }

  if (doc.contains("backend")) s.backend = read_backend(r, doc["backend"], base_dir);

  const ojson& plats = r.list(doc["platforms"], "platforms");
  for (std::size_t i = 0; i < plats.size(); ++i) {
    const std::string at = "platforms[" + std::to_string(i) + "]";
    const std::string p = r.text(plats[i], at);
    if (std::find(s.platforms.begin(), s.platforms.end(), p) != s.platforms.end())
      r.fail(at, "platform '" + p + "' is listed twice");
    s.platforms.push_back(p);
    // A name from `tlmgpu list` is passed on; a path is relative to the spec.
    const bool is_path = p.find('/') != std::string::npos || fs::path(p).extension() == ".json";
    s.platform_args.push_back(
        is_path && fs::path(p).is_relative() ? (base_dir / p).lexically_normal().string() : p);
  }

  const ojson& configs = r.object(doc["configs"], "configs");
  if (configs.empty()) r.fail("configs", "must not be empty");
  for (const auto& [label, v] : configs.items())
    s.configs.push_back(read_config(r, label, v, join("configs", label)));

  const ojson& wls = r.list(doc["workloads"], "workloads");
  for (std::size_t i = 0; i < wls.size(); ++i) {
    const std::string at = "workloads[" + std::to_string(i) + "]";
    SweepWorkload w = read_workload(r, wls[i], at, base_dir);
    for (const SweepWorkload& o : s.workloads)
      if (o.label == w.label)
        r.fail(at, "duplicate workload label '" + w.label + "' (give each a distinct \"label\")");
    s.workloads.push_back(std::move(w));
  }

  if (doc.contains("seeds")) {
    const ojson& seeds = r.list(doc["seeds"], "seeds");
    std::unordered_set<uint64_t> seen; // a 10^6-seed spec must not be quadratic
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      const std::string at = "seeds[" + std::to_string(i) + "]";
      if (!seeds[i].is_number_unsigned())
        r.fail(at, "expected an unsigned integer, got " + show(seeds[i]));
      const uint64_t seed = seeds[i].get<uint64_t>();
      if (!seen.insert(seed).second)
        r.fail(at, "seed " + std::to_string(seed) + " is listed twice");
      s.seeds.push_back(seed);
    }
  } else {
    s.seeds = {1};
  }

  s.baseline = doc.contains("baseline") ? r.text(doc["baseline"], "baseline") : s.configs[0].label;
  bool found = false;
  std::vector<std::string> labels;
  for (const SweepConfig& c : s.configs) {
    found = found || c.label == s.baseline;
    labels.push_back(c.label);
  }
  if (!found) {
    const std::string m = closest_match(s.baseline, labels);
    r.fail("baseline", "'" + s.baseline + "' is not one of the configs" +
                           (m.empty() ? "" : " (did you mean '" + m + "'?)"));
  }
  if (doc.contains("figures")) {
    const ojson& figs = r.list(doc["figures"], "figures");
    for (std::size_t i = 0; i < figs.size(); ++i)
      s.figures.push_back(read_figure(r, figs[i], "figures[" + std::to_string(i) + "]", labels));
  }
  return s;
}

SweepSpec load_spec(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw ConfigError("cannot open sweep spec '" + path + "'");
  std::ostringstream text;
  text << f.rdbuf();
  return parse_spec(text.str(), path, fs::absolute(path).parent_path());
}

} // namespace tlmgpu::sweep
