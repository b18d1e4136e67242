// Platform loading: files and "extends" chains -> one merged document (with
// the origin of every value remembered) -> --set overrides -> strict reader
// over the declarations -> derive(). See config.hpp.
#include "tlmgpu/config.hpp"
#include "config_reader.hpp"
#include "tlmgpu/json_limits.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace tlmgpu {
namespace {

using namespace config_detail;
using json = nlohmann::json;
namespace fs = std::filesystem;

// nlohmann keeps the last of duplicate keys silently; a platform file must
// not. Nesting is limited (json_limits.hpp): show(), merge() and the copies
// below recurse once per level.
json parse_text(const std::string& text, const std::string& shown) {
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;
  };
  std::vector<Frame> stack;
  auto check = [&](int depth, json::parse_event_t ev, json& parsed) {
    check_json_depth(depth, ev, shown);
    switch (ev) {
    case json::parse_event_t::object_start:
      stack.push_back({true, {}, {}});
      break;
    case json::parse_event_t::array_start:
      stack.push_back({false, {}, {}});
      break;
    case json::parse_event_t::object_end:
    case json::parse_event_t::array_end:
      stack.pop_back();
      break;
    case json::parse_event_t::key: {
      Frame& top = stack.back();
      top.key = parsed.get<std::string>();
      if (!top.keys.insert(top.key).second) {
        std::string path;
        for (const Frame& f : stack)
          if (f.object) path = join(path, f.key);
        throw ConfigError(shown + ": duplicate key '" + path + "'");
      }
      break;
    }
    case json::parse_event_t::value:
      break;
    }
    return true;
  };
  try {
    return json::parse(text, check);
  } catch (const json::parse_error& e) {
    throw malformed_json(shown, text, e.byte, e.what());
  } catch (const json::out_of_range& e) { // a number beyond a double (found by fuzzing)
    throw malformed_json(shown, text, 0, e.what());
  }
}

json read_file(const fs::path& file, const std::string& shown, const std::string& cannot_open) {
  std::string text;
  const std::string why = read_regular_file(file.string(), text, kMaxConfigFileBytes);
  if (!why.empty()) throw ConfigError(cannot_open + ": " + why);
  json doc = parse_text(text, shown);
  if (!doc.is_object())
    fail(shown, "", "expected a JSON object at the top level, got " + show(doc));
  return doc;
}

// Child values win; objects merge key by key; anything else is replaced.
void merge(json& base, const json& over, const std::string& prefix, const std::string& origin,
           Origins& origins) {
  for (const auto& item : over.items()) {
    const std::string path = join(prefix, item.key());
    auto it = base.find(item.key());
    if (it != base.end() && it->is_object() && item.value().is_object()) {
      merge(*it, item.value(), path, origin, origins);
    } else {
      base[item.key()] = item.value();
      origins.set(path, origin);
    }
  }
}

// `chain` holds the canonical paths being loaded (for cycle detection) and
// `shown` their names as the user will recognise them.
json load_tree(const fs::path& file, const std::string& shown, const std::string& cannot_open,
               std::vector<std::pair<std::string, std::string>>& chain, Origins& origins) {
  // A name the OS refuses (too long, a loop of links) is an error of the
  // file that names it, like one that does not open.
  std::error_code ec;
  const std::string canon = fs::weakly_canonical(file, ec).string();
  if (ec) throw ConfigError(cannot_open + ": " + ec.message());
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (chain[i].first != canon) continue;
    std::string cycle;
    for (std::size_t k = i; k < chain.size(); ++k)
      cycle += chain[k].second + " -> ";
    fail(chain.back().second, "extends", "cycle: " + cycle + shown);
  }
  json doc = read_file(file, shown, cannot_open);
  auto ext = doc.find("extends");
  if (ext == doc.end()) {
    origins.set("", shown);
    return doc;
  }
  if (!ext->is_string() || ext->get<std::string>().empty())
    fail(shown, "extends", "expected a platform file name (a string), got " + show(*ext));
  const std::string ref = ext->get<std::string>();
  const fs::path parent = fs::path(ref).is_absolute() ? fs::path(ref) : file.parent_path() / ref;
  const std::string parent_shown =
      (fs::path(ref).is_absolute() ? fs::path(ref) : fs::path(shown).parent_path() / ref)
          .lexically_normal()
          .string();
  chain.emplace_back(canon, shown);
  json base = load_tree(parent, parent_shown,
                        shown + ": extends: cannot open '" + parent_shown + "'", chain, origins);
  chain.pop_back();
  doc.erase("extends");
  merge(base, doc, "", shown, origins);
  return base;
}

void apply_set(json& doc, const std::string& assignment, Origins& origins) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set '" + assignment + "': expected key=value, e.g. l2.ways=16");
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  const auto& paths = declared_paths();
  const bool structure = key.compare(0, 9, "topology.") == 0; // checked when expanded
  if (!structure && std::find(paths.begin(), paths.end(), key) == paths.end()) {
    std::string group_keys;
    for (const std::string& p : paths)
      if (p.compare(0, key.size() + 1, key + ".") == 0)
        group_keys += (group_keys.empty() ? "" : ", ") + p;
    if (!group_keys.empty())
      throw ConfigError("--set " + key + ": '" + key +
                        "' is a group, set one of its keys: " + group_keys);
    std::string m = closest_match(key, paths);
    throw ConfigError(
        "unknown key '" + key + "' in --set" +
        (m.empty() ? suggestion("", leaf_of(key), {}) : " (did you mean '" + m + "'?)"));
  }
  json value = try_parse_json(text); // too deep or not JSON: the text as a string
  if (value.is_discarded()) value = text;

  json* node = &doc;
  std::string path;
  std::size_t start = 0;
  // A binding's key ("sm[i].mem") has dots of its own: it is one key.
  const std::size_t last = key.compare(0, 14, "topology.bind.") == 0 ? 13 : std::string::npos;
  for (std::size_t dot; (dot = key.find('.', start)) != std::string::npos && start <= last;
       start = dot + 1) {
    const std::string part = key.substr(start, dot - start);
    path = join(path, part);
    json& child = (*node)[part];
    if (child.is_null()) child = json::object();
    if (!child.is_object())
      fail(origins.of(path), path,
           "expected an object (a group of parameters), got " + show(child));
    node = &child;
  }
  (*node)[key.substr(start)] = std::move(value);
  origins.set(key, "--set");
}

// The "topology" section (structure, not parameters): merged onto the
// built-in GPU topology, with the file each block and binding came from.
TopologySpec read_topology(const json& doc, const Origins& origins, const std::string& origin) {
  TopologySpec t;
  t.doc = default_topology();
  t.origin = origin;
  for (const char* part : {"blocks", "bind"})
    for (const auto& item : t.doc.at(part).items())
      t.origins[std::string(part) + "." + item.key()] = origin + " (default topology)";
  auto it = doc.find("topology");
  if (it == doc.end()) return t;
  if (!it->is_object())
    fail(origins.of("topology"), "topology",
         "expected an object with \"blocks\" and \"bind\", got " + show(*it));
  t.origin = origins.below("topology");
  for (const char* part : {"blocks", "bind"})
    if (auto sub = it->find(part); sub != it->end() && sub->is_object())
      for (const auto& item : sub->items())
        t.origins[std::string(part) + "." + item.key()] =
            origins.below(std::string("topology.") + part + "." + item.key());
  merge_topology(t.doc, *it);
  return t;
}

PlatformSpec read_spec(const json& full, const Origins& origins, const std::string& origin) {
  PlatformSpec spec;
  json doc = full;
  spec.topology = read_topology(doc, origins, origin);
  doc.erase("topology");
  Reader reader(&doc, "", origins);
  spec.visit(reader);
  reader.finish();
  try {
    spec.derive();
  } catch (const ConfigError& e) {
    throw ConfigError(origin.empty() ? std::string(e.what()) : origin + ": " + e.what());
  }
  return spec;
}

} // namespace

void check_sets_unique(const std::vector<std::string>& sets) {
  std::set<std::string> keys;
  for (const std::string& s : sets) {
    const std::string key = s.substr(0, s.find('='));
    if (!keys.insert(key).second)
      throw ConfigError("--set " + key + " is given twice (a later value would silently win)");
  }
}

PlatformSpec load_platform(const std::string& path, const std::vector<std::string>& sets) {
  check_sets_unique(sets);
  Origins origins;
  std::vector<std::pair<std::string, std::string>> chain;
  json doc = load_tree(path, path, "cannot open platform file '" + path + "'", chain, origins);
  for (const std::string& s : sets)
    apply_set(doc, s, origins);
  return read_spec(doc, origins, path);
}

json load_config_tree(const std::string& path, const std::string& what) {
  Origins origins;
  std::vector<std::pair<std::string, std::string>> chain;
  return load_tree(path, path, "cannot open " + what + " '" + path + "'", chain, origins);
}

PlatformSpec platform_from_json(const json& doc, const std::string& origin) {
  if (!doc.is_object())
    fail(origin, "", "expected a JSON object at the top level, got " + show(doc));
  if (doc.contains("extends"))
    fail(origin, "extends", "only supported in platform files (load_platform)");
  Origins origins;
  origins.set("", origin);
  return read_spec(doc, origins, origin);
}

json effective_config(const PlatformSpec& spec) {
  PlatformSpec copy = spec;
  json j = json::object();
  Writer w{j};
  copy.visit(w);
  // Default blocks and bindings the platform removed stay removed on reload.
  json topo = spec.topology.doc;
  for (const char* part : {"blocks", "bind"})
    for (const auto& item : default_topology().at(part).items())
      if (!topo[part].contains(item.key())) topo[part][item.key()] = nullptr;
  j["topology"] = topo;
  return j;
}

ConfigError malformed_json(const std::string& shown, const std::string& text, std::size_t byte,
                           const std::string& what) {
  // nlohmann reports a number it cannot hold ("number overflow parsing
  // '5.5e521'") without a position: it is where that text first occurs.
  if (byte == 0)
    if (auto q = what.find('\''); q != std::string::npos)
      if (auto e = what.find('\'', q + 1); e != std::string::npos)
        if (auto at = text.find(what.substr(q + 1, e - q - 1)); at != std::string::npos)
          byte = at + 1;
  const std::size_t end = std::min<std::size_t>(byte == 0 ? 0 : byte - 1, text.size());
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < end; ++i) {
    col = text[i] == '\n' ? 1 : col + 1;
    line += text[i] == '\n';
  }
  std::string reason = what;
  if (auto at = reason.find("parse error"); at != std::string::npos) {
    if (auto colon = reason.find(": ", at); colon != std::string::npos)
      reason = reason.substr(colon + 2);
  } else if (auto close = reason.find("] ");
             reason.starts_with("[json.exception.") && close != std::string::npos) {
    reason = reason.substr(close + 2); // "[json.exception.out_of_range.406] number overflow..."
  }
  return ConfigError(shown + ":" + std::to_string(line) + ":" + std::to_string(col) +
                     ": malformed JSON: " + reason);
}

} // namespace tlmgpu
