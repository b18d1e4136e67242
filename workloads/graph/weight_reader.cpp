#include "workloads/graph/weight_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tlmgpu::graph::detail {

namespace {

constexpr double kMaxWeight = std::numeric_limits<Weight>::max();

bool fractional(double x) {
  return x != std::floor(x);
}

std::string number(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

} // namespace

double WeightReader::parse(const LineReader& in, std::string_view token, bool integer_only) const {
  std::string_view digits = token;
  if (digits.size() > 1 && digits[0] == '+') digits.remove_prefix(1);
  const char* end = digits.data() + digits.size();
  if (integer_only) {
    int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
    if (ec == std::errc::result_out_of_range)
      in.fail("weight " + quote(token) + " is out of range");
    if (ec != std::errc() || ptr != end)
      in.fail("expected an integer weight, found " + quote(token));
    return static_cast<double>(value);
  }
  double value = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (ec == std::errc::result_out_of_range) in.fail("weight " + quote(token) + " is out of range");
  if (ec != std::errc() || ptr != end) in.fail("expected a weight, found " + quote(token));
  if (!std::isfinite(value) && policy_.mode != WeightMode::ignore)
    in.fail("weight " + quote(token) + " is not finite");
  return value;
}

bool WeightReader::needs_fixed_point(double x) const {
  const bool automatic = policy_.mode == WeightMode::automatic || policy_.mode == WeightMode::abs;
  return automatic && scale_ == 1 && std::isfinite(x) && fractional(x);
}

Weight WeightReader::rescale(const LineReader& in, Weight w) const {
  const double scaled = static_cast<double>(w) * scale_;
  if (scaled > kMaxWeight)
    in.fail("first fractional weight: every weight becomes fixed point x" + number(scale_) +
            ", and an earlier weight " + std::to_string(w) +
            " then does not fit 32 bits (choose weights=scale:<k>)");
  return static_cast<Weight>(scaled);
}

Weight WeightReader::convert(const LineReader& in, std::string_view token, double x) {
  const std::string policy = "weights=" + policy_.name();
  switch (policy_.mode) {
  case WeightMode::ignore:
  case WeightMode::unit:
    return 1;
  case WeightMode::abs:
    if (x < 0) x = -x, ++negated_;
    break;
  case WeightMode::reject:
    if (x < 0) in.fail("negative weight " + quote(token) + " (" + policy + ")");
    if (fractional(x)) in.fail("fractional weight " + quote(token) + " (" + policy + ")");
    break;
  case WeightMode::automatic:
  case WeightMode::scale:
    if (x < 0)
      in.fail("negative weight " + quote(token) + " (" + policy +
              "; weights=abs or weights=unit accept it)");
    break;
  }
  const double factor = policy_.mode == WeightMode::scale ? policy_.factor : scale_;
  double w = std::nearbyint(x * factor);
  if (w > kMaxWeight)
    in.fail("weight " + quote(token) + (factor == 1 ? std::string() : " x " + number(factor)) +
            " does not fit 32 bits (" + policy + ")");
  // A positive length must never become a free arc: SSSP would report
  // distance 0 through it.
  if (w == 0 && x > 0) w = 1, ++raised_;
  return static_cast<Weight>(w);
}

void WeightReader::finish(EdgeList& list) const {
  list.weight_scale = policy_.mode == WeightMode::scale ? policy_.factor : scale_;
  list.raised_weights = raised_;
  list.negated_weights = negated_;
}

} // namespace tlmgpu::graph::detail
