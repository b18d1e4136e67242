// load_graph(): a `gen:` spec goes to the generators; a file goes to the
// reader its format names. The format is options.format when given (the
// `format=` argument), else the file's extension after any compression
// suffix ("web-Google.txt.gz" is a .txt edge list), else the content:
// distributed files are often named by what they hold (KONECT's
// `out.ucidata-zachary`), not by their format.
#include "workloads/graph/generators.hpp"
#include "workloads/graph/readers.hpp"
#include "workloads/graph/text_input.hpp"

#include "tlmgpu/memory_budget.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

namespace tlmgpu::graph {

namespace {

constexpr size_t kSniffBytes = 4096;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

GraphFormat by_name(const std::string& path) {
  const std::filesystem::path p(io::strip_compression_suffix(path));
  if (p.filename().string().starts_with("out.")) return GraphFormat::edge_list; // KONECT
  static constexpr std::array<std::pair<std::string_view, GraphFormat>, 13> kExtensions = {{
      {".mtx", GraphFormat::matrix_market},
      {".txt", GraphFormat::edge_list},
      {".el", GraphFormat::edge_list},
      {".snap", GraphFormat::edge_list},
      {".edges", GraphFormat::edge_list},
      {".edgelist", GraphFormat::edge_list},
      {".csv", GraphFormat::edge_list},
      {".tsv", GraphFormat::edge_list},
      {".konect", GraphFormat::edge_list},
      {".graph", GraphFormat::metis},
      {".gr", GraphFormat::dimacs},
      {".tntp", GraphFormat::tntp},
      {".gml", GraphFormat::gml},
  }};
  const std::string ext = lower(p.extension().string());
  for (const auto& [e, format] : kExtensions)
    if (e == ext) return format;
  return GraphFormat::automatic;
}

// A word `word` followed, after optional whitespace, by '['.
bool has_list(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
    size_t i = at + word.size();
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (starts && i < text.size() && text[i] == '[') return true;
  }
  return false;
}

// TNTP metadata: "<NUMBER OF NODES> 416", "<END OF METADATA>".
bool is_tntp_key(std::string_view line) {
  const size_t open = line.find_first_not_of(" \t"), close = line.find('>');
  if (open == std::string_view::npos || line[open] != '<' || close == std::string_view::npos)
    return false;
  const std::string_view key = line.substr(open + 1, close - open - 1);
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || c == ' ' || c == '_';
  });
}

} // namespace

GraphFormat detect_graph_format(const std::string& path) {
  if (const GraphFormat f = by_name(path); f != GraphFormat::automatic) return f;
  std::string head;
  try {
    head = io::read_head(path, kSniffBytes);
  } catch (const io::InputError&) {
    return GraphFormat::edge_list; // the reader reports it, with a line
  }
  const std::string_view text = head;
  std::vector<std::string_view> f;
  for (size_t start = 0; start < text.size();) {
    const size_t nl = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, nl - start);
    detail::split_fields(line, f);
    if (f.empty() || f[0] == "c" || f[0].starts_with("#")) { // blank, DIMACS or GML comment
      start = nl + 1;
      continue;
    }
    if (lower(f[0]).starts_with("%%matrixmarket")) return GraphFormat::matrix_market;
    if (f[0] == "p" && f.size() >= 2 && f[1] == "sp") return GraphFormat::dimacs;
    if (is_tntp_key(line)) return GraphFormat::tntp;
    if (std::isalpha(static_cast<unsigned char>(f[0][0])) && has_list(text.substr(start), "graph"))
      return GraphFormat::gml;
    break;
  }
  return GraphFormat::edge_list;
}

namespace {

// The memory budget as graph limits for the file readers: they refuse a file
// before reserving for it (a header's counts) or as soon as it holds more.
// Generators check their exact size against the budget (generators.cpp).
GraphBuildOptions within_budget(GraphBuildOptions o) {
  const uint64_t budget = memory_budget();
  const uint64_t arcs = budget / kBytesPerArc, vertices = budget / kBytesPerVertex;
  if (arcs >= o.max_edges && vertices >= o.max_vertices) return o;
  o.max_edges = std::min(o.max_edges, arcs);
  o.max_vertices = std::min(o.max_vertices, vertices);
  o.limit_note = " (what --max-memory " + format_bytes(budget) + " holds at about " +
                 std::to_string(kBytesPerArc) + " bytes per arc and " +
                 std::to_string(kBytesPerVertex) + " per vertex)";
  return o;
}

} // namespace

CsrGraph load_graph(const std::string& spec, const GraphBuildOptions& given) {
  if (spec.starts_with("gen:")) return generate_from_spec(spec, given);
  const GraphBuildOptions options = within_budget(given);
  const GraphFormat format =
      options.format == GraphFormat::automatic ? detect_graph_format(spec) : options.format;
  switch (format) {
  case GraphFormat::matrix_market:
    return read_matrix_market(spec, options);
  case GraphFormat::metis:
    return read_metis(spec, options);
  case GraphFormat::dimacs:
    return read_dimacs_gr(spec, options);
  case GraphFormat::tntp:
    return read_tntp(spec, options);
  case GraphFormat::gml:
    return read_gml(spec, options);
  case GraphFormat::edge_list:
  case GraphFormat::automatic:
    break;
  }
  return read_edge_list(spec, options);
}

} // namespace tlmgpu::graph
