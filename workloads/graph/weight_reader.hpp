// Internal to workloads/graph: turns weight tokens into Weight values by the
// reader's WeightPolicy (input_options.hpp), with errors naming the line.
#pragma once

#include "workloads/graph/text_input.hpp"

namespace tlmgpu::graph::detail {

class WeightReader {
public:
  explicit WeightReader(const WeightPolicy& policy) : policy_(policy) {}

  // False when the policy drops the values (unit, ignore): the reader then
  // builds an unweighted graph.
  bool keeps() const { return policy_.keeps_weights(); }

  // The weight `token` on the current line of `in`. integer_only: the format
  // declares integer weights (Matrix Market `integer`, METIS, DIMACS), so a
  // fraction is malformed whatever the policy. `stored` holds the arcs read
  // so far (anything with a `weight` member): when automatic meets its first
  // fractional value it switches to fixed point and rescales them.
  template <class Arcs>
  Weight read(const LineReader& in, std::string_view token, Arcs& stored,
              bool integer_only = false) {
    const double x = parse(in, token, integer_only);
    if (needs_fixed_point(x)) {
      scale_ = kAutoScale;
      for (auto& arc : stored)
        arc.weight = rescale(in, arc.weight);
    }
    return convert(in, token, x);
  }

  // Records the scale and the counts of raised and negated values.
  void finish(EdgeList& list) const;

private:
  double parse(const LineReader& in, std::string_view token, bool integer_only) const;
  bool needs_fixed_point(double x) const;
  Weight rescale(const LineReader& in, Weight w) const;
  Weight convert(const LineReader& in, std::string_view token, double x);

  WeightPolicy policy_;
  double scale_ = 1;
  uint64_t raised_ = 0, negated_ = 0;
};

} // namespace tlmgpu::graph::detail
