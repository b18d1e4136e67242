#include "workloads/graph/input_options.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <sstream>
#include <utility>

namespace tlmgpu::graph {

namespace {

constexpr std::array<std::pair<GraphFormat, std::string_view>, 7> kFormats = {{
    {GraphFormat::automatic, "auto"},
    {GraphFormat::matrix_market, "mtx"},
    {GraphFormat::edge_list, "edgelist"},
    {GraphFormat::metis, "metis"},
    {GraphFormat::dimacs, "dimacs"},
    {GraphFormat::tntp, "tntp"},
    {GraphFormat::gml, "gml"},
}};

} // namespace

GraphFormat parse_graph_format(std::string_view text) {
  for (const auto& [format, name] : kFormats)
    if (name == text) return format;
  throw InputOptionError("format '" + std::string(text) + "' is not one of " +
                         graph_format_choices());
}

std::string_view format_name(GraphFormat f) {
  for (const auto& [format, name] : kFormats)
    if (format == f) return name;
  return "?";
}

std::string graph_format_choices() {
  std::string out;
  for (const auto& entry : kFormats)
    out += (out.empty() ? "" : "|") + std::string(entry.second);
  return out;
}

WeightPolicy WeightPolicy::parse(std::string_view text) {
  WeightPolicy p;
  if (text == "auto") return p;
  if (text == "reject") return p.mode = WeightMode::reject, p;
  if (text == "abs") return p.mode = WeightMode::abs, p;
  if (text == "unit") return p.mode = WeightMode::unit, p;
  constexpr std::string_view kScale = "scale:";
  if (text.starts_with(kScale)) {
    const std::string_view k = text.substr(kScale.size());
    double factor = 0;
    const auto [ptr, ec] = std::from_chars(k.data(), k.data() + k.size(), factor);
    if (ec != std::errc() || ptr != k.data() + k.size() || !std::isfinite(factor) || factor <= 0)
      throw InputOptionError("weights=scale:<k> needs a positive number k, found '" +
                             std::string(k) + "'");
    p.mode = WeightMode::scale;
    p.factor = factor;
    return p;
  }
  throw InputOptionError("weights '" + std::string(text) + "' is not one of " +
                         std::string(kWeightPolicyChoices));
}

std::string WeightPolicy::name() const {
  switch (mode) {
  case WeightMode::automatic:
    return "auto";
  case WeightMode::reject:
    return "reject";
  case WeightMode::abs:
    return "abs";
  case WeightMode::unit:
    return "unit";
  case WeightMode::ignore:
    return "ignore";
  case WeightMode::scale:
    break;
  }
  std::ostringstream s;
  s << "scale:" << factor;
  return s.str();
}

} // namespace tlmgpu::graph
