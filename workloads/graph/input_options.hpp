// What a graph reader is told besides the file: which format to read (when
// the file name does not say) and how to turn the weight values in the file
// into CsrGraph's unsigned 32-bit weights. Both come from workload arguments
// (`format=`, `weights=`); see workloads/graph/README.md, "Weights".
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace tlmgpu::graph {

// A malformed `format=` or `weights=` value.
class InputOptionError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

enum class GraphFormat { automatic, matrix_market, edge_list, metis, dimacs, tntp, gml };

// "auto", "mtx", "edgelist", "metis", "dimacs", "tntp", "gml".
GraphFormat parse_graph_format(std::string_view text);
std::string_view format_name(GraphFormat f);
// The accepted names, for help texts: "auto|mtx|edgelist|metis|dimacs|tntp|gml".
std::string graph_format_choices();

// File value x -> stored weight. Every mode rounds to the nearest integer
// (ties to even) after scaling, and a positive value never becomes 0: one
// that would round to 0 is stored as 1 and counted (CsrGraph::raised_weights).
enum class WeightMode {
  // Non-negative integers exactly; if any value is fractional, every value
  // is stored as fixed point x1000 (kAutoScale; CsrGraph::weight_scale says
  // so); a negative value is an error that names abs and unit.
  automatic,
  // Every value must be a non-negative integer; anything else is an error.
  reject,
  // |x|, then as automatic (negations counted in CsrGraph::negated_weights).
  abs,
  // The values are checked to be numbers and dropped: every arc weighs 1
  // (the graph comes out unweighted).
  unit,
  // round(k x) for x >= 0; a negative value is an error.
  scale,
  // For kernels that never read weights: as unit, but chosen by the kernel,
  // not the user; any number of any sign is accepted.
  ignore,
};

inline constexpr double kAutoScale = 1000;

struct WeightPolicy {
  WeightMode mode = WeightMode::automatic;
  double factor = 1; // k of scale:<k>

  // "auto", "reject", "abs", "unit" or "scale:<k>" with k > 0.
  static WeightPolicy parse(std::string_view text);
  // The `weights=` spelling of this policy ("ignore" for ignore).
  std::string name() const;
  // False when the values are dropped (unit, ignore).
  bool keeps_weights() const { return mode != WeightMode::unit && mode != WeightMode::ignore; }
};

inline constexpr std::string_view kWeightPolicyChoices = "auto|reject|abs|unit|scale:<k>";

} // namespace tlmgpu::graph
