#include "workloads/graph/edge_list_fields.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace tlmgpu::graph::detail {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Column-name pairs of common exports: networkx/pandas, Gephi, igraph,
// STRING, BioGRID-style tables.
bool known_pair(std::string_view a, std::string_view b) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kPairs = {{
      {"source", "target"},
      {"src", "dst"},
      {"from", "to"},
      {"u", "v"},
      {"node1", "node2"},
      {"node_1", "node_2"},
      {"id1", "id2"},
      {"source", "destination"},
      {"protein1", "protein2"},
      {"gene1", "gene2"},
      {"fromnodeid", "tonodeid"},
      {"head", "tail"},
  }};
  const std::string la = lower(trim(a)), lb = lower(trim(b));
  return std::any_of(kPairs.begin(), kPairs.end(),
                     [&](const auto& p) { return p.first == la && p.second == lb; });
}

// Comma-separated fields, trimmed; a field in double quotes may hold commas
// (its quotes are dropped; a doubled "" inside is kept as written).
void split_csv(const LineReader& in, std::string_view text, std::vector<std::string_view>& f) {
  f.clear();
  size_t i = 0;
  for (;;) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
      ++i;
    size_t start = i, end = i;
    if (i < text.size() && text[i] == '"') {
      start = ++i;
      for (; i < text.size(); ++i)
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"')
            ++i;
          else
            break;
        }
      if (i == text.size()) in.fail("unterminated quoted field");
      end = i++;
      for (; i < text.size() && text[i] != ','; ++i)
        if (text[i] != ' ' && text[i] != '\t') in.fail("text after a quoted field");
    } else {
      while (i < text.size() && text[i] != ',')
        ++i;
      end = i;
    }
    f.push_back(start <= end ? trim(text.substr(start, end - start)) : std::string_view());
    if (i >= text.size()) break;
    ++i; // the comma
  }
}

} // namespace

std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\v\f");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\v\f") - first + 1);
}

bool is_number(std::string_view token) {
  if (token.size() > 1 && token[0] == '+') token.remove_prefix(1);
  // from_chars also takes "nan" and "inf", which are names here.
  const size_t lead = token.starts_with('-') ? 1 : 0;
  if (token.size() <= lead ||
      !(std::isdigit(static_cast<unsigned char>(token[lead])) || token[lead] == '.'))
    return false;
  double value = 0;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  return !token.empty() && ec == std::errc() && ptr == token.data() + token.size();
}

RowLayout RowLayout::from_first_row(const LineReader& in, std::string_view text) {
  RowLayout r;
  r.csv = text.find(',') != std::string_view::npos;
  r.first_line = in.line_number();
  std::vector<std::string_view> f;
  if (r.csv)
    split_csv(in, text, f);
  else
    split_fields(text, f);
  if (f.size() < 2)
    in.fail("expected 'src dst' or 'src dst weight', found " + std::to_string(f.size()) + " field" +
            (f.size() == 1 ? "" : "s"));
  r.columns = f.size();
  r.header = known_pair(f[0], f[1]) ||
             (f.size() >= 3 && !is_number(f[0]) && !is_number(f[1]) && !is_number(f[2]));
  if (!r.header) {
    if (f.size() >= 3) r.weight_column = 2;
    return r;
  }
  for (size_t i = 2; i < f.size(); ++i) {
    const std::string name = lower(f[i]);
    if (name == "weight" || name == "weights" || name == "value" || name == "score" ||
        name == "combined_score") {
      r.weight_column = i;
      break;
    }
  }
  return r;
}

void RowLayout::split(const LineReader& in, std::string_view text,
                      std::vector<std::string_view>& f) const {
  if (csv)
    split_csv(in, text, f);
  else
    split_fields(text, f);
  if (f.size() != columns)
    in.fail("expected " + std::to_string(columns) + " fields like line " +
            std::to_string(first_line) + ", found " + std::to_string(f.size()));
  if (f[0].empty() || f[1].empty()) in.fail("empty vertex id");
}

void KonectHeader::note(const LineReader& in, std::string_view comment) {
  std::vector<std::string_view> f;
  split_fields(comment.substr(1), f);
  if (in.line_number() == 1 && f.size() >= 1) {
    symmetric = f[0] == "sym";
    bipartite = f[0] == "bip";
    return;
  }
  if (in.line_number() == 2 && bipartite) {
    if (f.size() < 3) in.fail("KONECT bipartite file needs '% m n1 n2' on line 2");
    left = parse_count(in, f[1], "left vertex count n1");
  }
}

} // namespace tlmgpu::graph::detail
