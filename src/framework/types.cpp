// Names of the shared vocabulary, as written in platform files, traces and
// stats. One table per enum so to_string and parse_* can never disagree.
#include "tlmgpu/types.hpp"

#include <iterator>

namespace tlmgpu {
namespace {

// Indexed by the enum's underlying value; the static_asserts below keep the
// tables in step with the enums.
constexpr std::string_view kAccessKindNames[] = {"load",  "store",      "atomic",   "red", "fence",
                                                 "flush", "invalidate", "eviction", "fill"};
constexpr std::string_view kAtomicOpNames[] = {"add", "sub", "min", "max",  "inc", "dec",
                                               "and", "or",  "xor", "exch", "cas"};
constexpr std::string_view kDataTypeNames[] = {"u32", "s32", "u64", "f32", "f64"};
constexpr std::string_view kMemOrderNames[] = {"relaxed", "acquire", "release",
                                               "acq_rel", "seq_cst", "commutative"};
constexpr std::string_view kScopeNames[] = {"cta", "device", "system"};

static_assert(std::size(kAccessKindNames) == static_cast<size_t>(AccessKind::Fill) + 1);
static_assert(std::size(kAtomicOpNames) == static_cast<size_t>(AtomicOp::Cas) + 1);
static_assert(std::size(kDataTypeNames) == static_cast<size_t>(DataType::F64) + 1);
static_assert(std::size(kMemOrderNames) == static_cast<size_t>(MemOrder::Commutative) + 1);
static_assert(std::size(kScopeNames) == static_cast<size_t>(Scope::System) + 1);

template <class E, size_t N>
std::string_view name_of(const std::string_view (&names)[N], E e) {
  const auto i = static_cast<size_t>(e);
  return i < N ? names[i] : std::string_view("?");
}

template <class E, size_t N>
std::optional<E> parse(const std::string_view (&names)[N], std::string_view s) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<E>(i);
  return std::nullopt;
}

} // namespace

std::string_view to_string(TimingMode m) {
  switch (m) {
  case TimingMode::Functional:
    return "functional";
  case TimingMode::LT:
    return "lt";
  case TimingMode::AT:
    return "at";
  }
  return "?";
}

std::string_view to_string(AccessKind k) {
  return name_of(kAccessKindNames, k);
}
std::string_view to_string(AtomicOp o) {
  return name_of(kAtomicOpNames, o);
}
std::string_view to_string(DataType t) {
  return name_of(kDataTypeNames, t);
}
std::string_view to_string(MemOrder o) {
  return name_of(kMemOrderNames, o);
}
std::string_view to_string(Scope s) {
  return name_of(kScopeNames, s);
}

std::optional<AtomicOp> parse_atomic_op(std::string_view s) {
  return parse<AtomicOp>(kAtomicOpNames, s);
}
std::optional<DataType> parse_data_type(std::string_view s) {
  return parse<DataType>(kDataTypeNames, s);
}
std::optional<MemOrder> parse_mem_order(std::string_view s) {
  return parse<MemOrder>(kMemOrderNames, s);
}
std::optional<Scope> parse_scope(std::string_view s) {
  return parse<Scope>(kScopeNames, s);
}

} // namespace tlmgpu
