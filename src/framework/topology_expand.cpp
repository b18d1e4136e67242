// Expanding a topology section into instances and bindings, with every
// check that names the file and JSON path (include/tlmgpu/topology.hpp).
#include "tlmgpu/topology.hpp"

#include "topology_errors.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

namespace tlmgpu {
namespace {

using json = nlohmann::json;
using namespace topology_detail;

// "block[expr].port[expr]" with both indices optional.
struct EndText {
  std::string block, block_index, port, port_index;
  bool has_block_index = false, has_port_index = false;
};

EndText parse_end(const std::string& s, const std::string& origin, const std::string& where) {
  EndText e;
  size_t p = 0;
  auto ident = [&](std::string& out) {
    const size_t start = p;
    while (p < s.size() && (std::isalnum(static_cast<unsigned char>(s[p])) || s[p] == '_'))
      ++p;
    out = s.substr(start, p - start);
  };
  auto index = [&](std::string& out, bool& has) {
    if (p >= s.size() || s[p] != '[') return;
    const size_t close = s.find(']', p);
    if (close == std::string::npos) fail(origin, where, "'" + s + "': missing ']'");
    out = s.substr(p + 1, close - p - 1);
    has = true;
    p = close + 1;
  };
  ident(e.block);
  index(e.block_index, e.has_block_index);
  if (e.block.empty() || p >= s.size() || s[p] != '.')
    fail(origin, where, "'" + s + "': expected block.port or block[index].port[index]");
  ++p;
  ident(e.port);
  index(e.port_index, e.has_port_index);
  if (e.port.empty() || p != s.size())
    fail(origin, where, "'" + s + "': expected block.port or block[index].port[index]");
  return e;
}

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  return s;
}

uint32_t count_value(const json& v, const json& params, const std::string& origin,
                     const std::string& where, int64_t min = 1) {
  int64_t n = 0;
  if (v.is_number_integer())
    n = v.get<int64_t>();
  else if (v.is_string())
    try {
      n = eval_expression(v.get<std::string>(), params, {});
    } catch (const ConfigError& e) {
      fail(origin, where, e.what());
    }
  else
    fail(origin, where, "expected a count (an integer or an expression string), got " + v.dump());
  if (n < min || n > 65535)
    fail(origin, where,
         v.dump() + " = " + std::to_string(n) + " is out of range [" + std::to_string(min) +
             ", 65535]");
  return uint32_t(n);
}

void check_keys(const json& obj, const std::vector<std::string>& allowed, const std::string& origin,
                const std::string& where) {
  for (const auto& item : obj.items())
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
      fail(origin, where + "." + item.key(),
           "unknown key" + did_you_mean(item.key(), allowed) + "; expected " + listing(allowed));
}

struct Port {
  const PortDecl* decl;
  uint32_t count; // 1 for a single port
};

// One side of a binding, resolved against the blocks and their ports.
struct Resolver {
  const std::vector<TopoBlock>& blocks;
  const std::vector<const std::vector<PortDecl>*>& decls; // per block
  const json& params;
  std::string origin, where;

  size_t block_of(const EndText& e) const {
    std::vector<std::string> names;
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (blocks[b].name == e.block) return b;
      names.push_back(blocks[b].name);
    }
    fail(origin, where,
         "unknown block '" + e.block + "'" + did_you_mean(e.block, names) +
             "; blocks: " + listing(names));
  }
  Port port_of(size_t b, const EndText& e) const {
    std::vector<std::string> names;
    for (const PortDecl& d : *decls[b]) {
      if (d.name == e.port) {
        auto it = blocks[b].port_counts.find(d.name);
        return {&d, it == blocks[b].port_counts.end() ? 1u : it->second};
      }
      names.push_back(d.name);
    }
    fail(origin, where,
         "block '" + e.block + "' (type " + blocks[b].type + ") has no port '" + e.port + "'" +
             did_you_mean(e.port, names) + "; ports: " + listing(names));
  }
  // Index of `text` (absent when !has) into something of `n`.
  uint32_t index(const std::string& text, bool has, bool wants, uint32_t n, const std::string& what,
                 const std::map<std::string, int64_t>& vars) const {
    if (has && !wants)
      fail(origin, where,
           what + " is a single " + (what.find('.') != std::string::npos ? "port" : "block") +
               "; write it without [" + text + "]");
    if (!has && wants)
      fail(origin, where,
           what + " has " + std::to_string(n) +
               (what.find('.') != std::string::npos ? " ports" : " instances") + "; write " + what +
               "[...]");
    if (!has) return 0;
    int64_t v = 0;
    try {
      v = eval_expression(text, params, vars);
    } catch (const ConfigError& e) {
      fail(origin, where, e.what());
    }
    if (v < 0 || v >= int64_t(n))
      fail(origin, where,
           what + "[" + text + "]" +
               (vars.empty() ? "" : " (i = " + std::to_string(vars.at("i")) + ")") + " = " + what +
               "[" + std::to_string(v) + "] is out of range: " + what + " has " +
               std::to_string(n));
    return uint32_t(v);
  }
};

// Upstream first: a block comes after every block whose initiators bind to
// it (Kahn's order, ties and cycles broken by name).
std::vector<size_t> upstream_first(const std::vector<TopoBlock>& blocks,
                                   const std::vector<TopoBinding>& bindings) {
  const size_t n = blocks.size();
  std::vector<std::set<size_t>> into(n);
  for (const TopoBinding& b : bindings)
    if (b.from.block != b.to.block) into[b.to.block].insert(b.from.block);
  std::vector<size_t> order;
  std::vector<bool> placed(n, false);
  while (order.size() < n) {
    size_t pick = n;
    for (size_t b = 0; b < n && pick == n; ++b) {
      if (placed[b]) continue;
      bool ready = true;
      for (size_t u : into[b])
        ready = ready && placed[u];
      if (ready) pick = b;
    }
    if (pick == n) // a cycle (a ring): the first unplaced block by name
      for (size_t b = 0; b < n && pick == n; ++b)
        if (!placed[b]) pick = b;
    placed[pick] = true;
    order.push_back(pick);
  }
  return order;
}

} // namespace
} // namespace tlmgpu

namespace tlmgpu {

Topology expand_topology(const TopologySpec& t, const json& params, const BlockCatalog& catalog) {
  const json& doc = t.doc;
  if (!doc.is_object()) fail(t.origin, "topology", "expected an object, got " + doc.dump());
  check_keys(doc, {"blocks", "bind"}, t.origin, "topology");
  const json blocks_doc = doc.value("blocks", json::object());
  const json bind_doc = doc.value("bind", json::object());
  if (!blocks_doc.is_object()) fail(t.origin, "topology.blocks", "expected an object");
  if (!bind_doc.is_object()) fail(t.origin, "topology.bind", "expected an object");

  Topology topo;
  std::vector<const std::vector<PortDecl>*> decls;
  for (const auto& item : blocks_doc.items()) {
    const std::string where = "topology.blocks." + item.key();
    const std::string origin = t.origin_of("blocks." + item.key());
    const json& e = item.value();
    if (!e.is_object()) fail(origin, where, "expected an object with \"type\", got " + e.dump());
    check_keys(e, {"type", "count", "ports", "stages"}, origin, where);
    TopoBlock b;
    b.name = item.key();
    if (!e.contains("type") || !e["type"].is_string())
      fail(origin, where + ".type", "expected a block type (a string); see 'tlmgpu list'");
    b.type = e["type"].get<std::string>();
    const std::vector<PortDecl>* ports = catalog.ports(b.type);
    if (!ports)
      fail(origin, where + ".type",
           "unknown block type '" + b.type + "'" + did_you_mean(b.type, catalog.types) +
               "; types: " + listing(catalog.types));
    if (e.contains("count")) {
      b.indexed = true;
      b.count = count_value(e["count"], params, origin, where + ".count");
    }
    if (e.contains("stages")) {
      if (!e["stages"].is_string())
        fail(origin, where + ".stages",
             "expected the stage types as one string (\"probe, lab\"), got " + e["stages"].dump());
      b.has_stages = true;
      b.stages = e["stages"].get<std::string>();
    }
    const json port_counts = e.value("ports", json::object());
    if (!port_counts.is_object()) fail(origin, where + ".ports", "expected an object");
    for (const auto& pc : port_counts.items()) {
      auto d = std::find_if(ports->begin(), ports->end(),
                            [&](const PortDecl& p) { return p.name == pc.key(); });
      std::vector<std::string> multi;
      for (const PortDecl& p : *ports)
        if (p.multi) multi.push_back(p.name);
      if (d == ports->end() || !d->multi)
        fail(origin, where + ".ports." + pc.key(),
             "type " + b.type + " has no multi-port '" + pc.key() + "'" +
                 did_you_mean(pc.key(), multi) + "; multi-ports: " + listing(multi));
      b.port_counts[pc.key()] = count_value(pc.value(), params, origin,
                                            where + ".ports." + pc.key(), d->optional ? 0 : 1);
    }
    for (const PortDecl& p : *ports)
      if (p.multi && p.optional && !b.port_counts.count(p.name)) b.port_counts[p.name] = 0;
    for (const PortDecl& p : *ports)
      if (p.multi && !p.optional && !b.port_counts.count(p.name))
        fail(origin, where + ".ports",
             "multi-port '" + p.name + "' of type " + b.type + " needs a count (\"ports\": { \"" +
                 p.name + "\": ... })");
    topo.blocks.push_back(std::move(b));
    decls.push_back(ports);
  }

  std::map<std::tuple<size_t, uint32_t, std::string, uint32_t>, std::string> bound;
  for (const auto& item : bind_doc.items()) {
    Resolver r{topo.blocks, decls, params, t.origin_of("bind." + item.key()),
               "topology.bind." + item.key()};
    if (!item.value().is_string())
      fail(r.origin, r.where, "expected a target port (a string), got " + item.value().dump());
    const EndText from = parse_end(trim(item.key()), r.origin, r.where);
    const EndText to = parse_end(trim(item.value().get<std::string>()), r.origin, r.where);
    const size_t fb = r.block_of(from), tb = r.block_of(to);
    const Port fp = r.port_of(fb, from), tp = r.port_of(tb, to);
    if (fp.decl->dir != PortDir::Initiator)
      fail(r.origin, r.where,
           from.block + "." + from.port +
               " is a target port; a binding's key is an initiator port, its value a target port");
    if (tp.decl->dir != PortDir::Target)
      fail(r.origin, r.where,
           to.block + "." + to.port +
               " is an initiator port; a binding's key is an initiator port, its value a target "
               "port");
    // `i` runs over what the key indexes with exactly "i".
    uint32_t n = 1;
    bool loop = false;
    if (from.has_block_index && trim(from.block_index) == "i")
      n = topo.blocks[fb].count, loop = true;
    else if (from.has_port_index && trim(from.port_index) == "i")
      n = fp.count, loop = true;
    for (uint32_t i = 0; i < n; ++i) {
      std::map<std::string, int64_t> vars;
      if (loop) vars["i"] = i;
      TopoBinding b;
      b.where = r.where + (loop ? " (i = " + std::to_string(i) + ")" : "");
      const TopoBlock &fbk = topo.blocks[fb], &tbk = topo.blocks[tb];
      b.from = {
          fb,
          r.index(from.block_index, from.has_block_index, fbk.indexed, fbk.count, from.block, vars),
          from.port,
          r.index(from.port_index, from.has_port_index, fp.decl->multi, fp.count,
                  from.block + "." + from.port, vars)};
      b.to = {tb,
              r.index(to.block_index, to.has_block_index, tbk.indexed, tbk.count, to.block, vars),
              to.port,
              r.index(to.port_index, to.has_port_index, tp.decl->multi, tp.count,
                      to.block + "." + to.port, vars)};
      for (const TopoEnd* e : {&b.from, &b.to}) {
        auto [it, fresh] =
            bound.emplace(std::make_tuple(e->block, e->index, e->port, e->port_index), b.where);
        if (!fresh)
          fail(r.origin, b.where,
               "port " + topo.end_name(*e) + " is bound twice: also by " + it->second);
      }
      topo.bindings.push_back(std::move(b));
    }
  }

  // Every port of every instance is bound exactly once.
  for (size_t bi = 0; bi < topo.blocks.size(); ++bi) {
    const TopoBlock& b = topo.blocks[bi];
    for (uint32_t i = 0; i < b.count; ++i)
      for (const PortDecl& d : *decls[bi]) {
        const uint32_t n = d.multi ? b.port_counts.at(d.name) : 1;
        for (uint32_t k = 0; k < n; ++k)
          if (!bound.count(std::make_tuple(bi, i, d.name, k)))
            fail(t.origin_of("blocks." + b.name), "topology.bind",
                 "port " + topo.end_name({bi, i, d.name, k}) + " (block '" + b.name + "', type " +
                     b.type + ") is not bound");
      }
  }

  const std::vector<size_t> order = upstream_first(topo.blocks, topo.bindings);
  std::vector<size_t> where_now(order.size());
  Topology sorted;
  for (size_t k = 0; k < order.size(); ++k) {
    where_now[order[k]] = k;
    sorted.blocks.push_back(std::move(topo.blocks[order[k]]));
  }
  for (TopoBinding& b : topo.bindings) {
    b.from.block = where_now[b.from.block];
    b.to.block = where_now[b.to.block];
    sorted.bindings.push_back(std::move(b));
  }
  auto key = [](const TopoEnd& e) { return std::tie(e.block, e.index, e.port, e.port_index); };
  std::sort(sorted.bindings.begin(), sorted.bindings.end(),
            [&](const TopoBinding& a, const TopoBinding& b) { return key(a.from) < key(b.from); });
  return sorted;
}

} // namespace tlmgpu
