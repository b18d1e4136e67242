// Topology expansion and checks (include/tlmgpu/topology.hpp).
#include "tlmgpu/topology.hpp"

#include "tlmgpu/config.hpp"
#include "topology_errors.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <set>
#include <sstream>
#include <tuple>

namespace tlmgpu {
namespace {

using json = nlohmann::json;
using namespace topology_detail;

// The GPU every platform starts from; a platform's "topology" merges onto it.
const char* const kDefaultTopology = R"({
  "blocks": {
    "sm":   { "type": "sm", "count": "sm.count" },
    "xbar": { "type": "xbar",
              "ports": { "in": "sm.count", "out": "dram.channels * l2.sub_partitions" } },
    "l2":   { "type": "l2", "count": "dram.channels * l2.sub_partitions" },
    "dram": { "type": "dram", "count": "dram.channels", "ports": { "in": "l2.sub_partitions" } }
  },
  "bind": {
    "sm[i].mem": "xbar.in[i]",
    "xbar.out[i]": "l2[i].up",
    "l2[i].mem": "dram[i / l2.sub_partitions].in[i % l2.sub_partitions]"
  }
})";

void numeric_paths(const json& j, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& item : j.items()) {
    const std::string path = prefix.empty() ? item.key() : prefix + "." + item.key();
    if (item.value().is_object())
      numeric_paths(item.value(), path, out);
    else if (item.value().is_number_integer())
      out.push_back(path);
  }
}

// Recursive descent over + - * / % and parentheses; 64-bit signed.
class ExprParser {
public:
  ExprParser(const std::string& s, const json& params, const std::map<std::string, int64_t>& vars)
      : s_(s), params_(params), vars_(vars) {}
  int64_t parse() {
    const int64_t v = sum();
    skip();
    if (p_ != s_.size()) error("unexpected '" + s_.substr(p_) + "'");
    return v;
  }

private:
  [[noreturn]] void error(const std::string& why) const {
    throw ConfigError("'" + s_ + "': " + why);
  }
  void skip() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_])))
      ++p_;
  }
  bool eat(char c) {
    skip();
    if (p_ < s_.size() && s_[p_] == c) return ++p_, true;
    return false;
  }
  int64_t sum() {
    int64_t v = product();
    for (;;) {
      if (eat('+'))
        v += product();
      else if (eat('-'))
        v -= product();
      else
        return v;
    }
  }
  int64_t product() {
    int64_t v = unary();
    for (;;) {
      const char op = eat('*') ? '*' : eat('/') ? '/' : eat('%') ? '%' : 0;
      if (!op) return v;
      const int64_t r = unary();
      if (op == '*') {
        v *= r;
        continue;
      }
      if (r == 0) error("division by zero");
      v = op == '/' ? v / r : v % r;
    }
  }
  int64_t unary() {
    if (eat('-')) return -unary();
    if (eat('(')) {
      const int64_t v = sum();
      if (!eat(')')) error("missing ')'");
      return v;
    }
    skip();
    if (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
      int64_t v = 0;
      while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_])))
        v = v * 10 + (s_[p_++] - '0');
      return v;
    }
    const size_t start = p_;
    while (p_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_' || s_[p_] == '.'))
      ++p_;
    if (start == p_) error(p_ < s_.size() ? "unexpected '" + s_.substr(p_) + "'" : "incomplete");
    return name(s_.substr(start, p_ - start));
  }
  int64_t name(const std::string& n) const {
    if (auto it = vars_.find(n); it != vars_.end()) return it->second;
    const json* node = &params_;
    std::stringstream parts(n);
    std::string part;
    while (node && std::getline(parts, part, '.')) {
      auto it = node->is_object() ? node->find(part) : node->end();
      node = (node->is_object() && it != node->end()) ? &*it : nullptr;
    }
    if (node && node->is_number_integer()) return node->get<int64_t>();
    std::vector<std::string> known;
    numeric_paths(params_, "", known);
    for (const auto& [v, _] : vars_)
      known.push_back(v);
    if (node) error("'" + n + "' is not an integer parameter");
    error("unknown name '" + n + "'" + did_you_mean(n, known) +
          (vars_.empty() && n.find('.') == std::string::npos
               ? " (the index variable i exists only where the key writes [i])"
               : ""));
  }

  const std::string& s_;
  const json& params_;
  const std::map<std::string, int64_t>& vars_;
  size_t p_ = 0;
};

} // namespace

std::string TopologySpec::origin_of(const std::string& key) const {
  auto it = origins.find(key);
  return it != origins.end() ? it->second : origin;
}

const json& default_topology() {
  static const json doc = json::parse(kDefaultTopology);
  return doc;
}

void merge_topology(json& base, const json& over) {
  for (const auto& item : over.items()) {
    if (item.value().is_null()) {
      base.erase(item.key());
      continue;
    }
    auto it = base.find(item.key());
    if (it != base.end() && it->is_object() && item.value().is_object())
      merge_topology(*it, item.value());
    else
      base[item.key()] = item.value();
  }
}

int64_t eval_expression(const std::string& expr, const json& params,
                        const std::map<std::string, int64_t>& vars) {
  return ExprParser(expr, params, vars).parse();
}

const TopoBlock* Topology::find(const std::string& name) const {
  for (const TopoBlock& b : blocks)
    if (b.name == name) return &b;
  return nullptr;
}

std::string Topology::end_name(const TopoEnd& e) const {
  const TopoBlock& b = blocks[e.block];
  std::string s = b.instance(e.index) + "." + e.port;
  if (b.port_counts.count(e.port)) s += "[" + std::to_string(e.port_index) + "]";
  return s;
}

std::string topology_text(const Topology& t) {
  std::ostringstream os;
  os << "blocks (built in this order, upstream first):\n";
  size_t w = 4;
  for (const TopoBlock& b : t.blocks)
    w = std::max(w, b.name.size());
  for (const TopoBlock& b : t.blocks) {
    std::string count = b.indexed ? "x" + std::to_string(b.count) : "";
    os << "  " << std::left << std::setw(int(w) + 2) << b.name << "type " << std::setw(int(w) + 2)
       << b.type << std::setw(8) << count;
    if (b.indexed)
      os << (b.count == 1 ? b.instance(0) : b.instance(0) + " .. " + b.instance(b.count - 1));
    for (const auto& [port, n] : b.port_counts)
      os << "  " << port << "[" << n << "]";
    os << "\n";
  }
  os << "bindings (initiator -> target), " << t.bindings.size() << ":\n";
  for (const TopoBinding& b : t.bindings)
    os << "  " << t.end_name(b.from) << " -> " << t.end_name(b.to) << "\n";
  return os.str();
}

std::string topology_dot(const Topology& t, const std::string& title) {
  std::ostringstream os;
  os << "digraph \"" << title << "\" {\n  rankdir=LR;\n  node [shape=box];\n";
  for (const TopoBlock& b : t.blocks) {
    os << "  subgraph \"cluster_" << b.name << "\" {\n    label=\"" << b.name << " (" << b.type
       << ")\";\n";
    for (uint32_t i = 0; i < b.count; ++i)
      os << "    \"" << b.instance(i) << "\";\n";
    os << "  }\n";
  }
  for (const TopoBinding& b : t.bindings) {
    auto port = [&](const TopoEnd& e) {
      const std::string n = t.end_name(e);
      return n.substr(n.find('.') + 1);
    };
    os << "  \"" << t.blocks[b.from.block].instance(b.from.index) << "\" -> \""
       << t.blocks[b.to.block].instance(b.to.index) << "\" [taillabel=\"" << port(b.from)
       << "\", headlabel=\"" << port(b.to) << "\"];\n";
  }
  os << "}\n";
  return os.str();
}

} // namespace tlmgpu
