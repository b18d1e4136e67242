// Internal to the edge-list reader: how a row splits into fields (whitespace
// or CSV, decided by the first data row), the optional header row, and
// KONECT's two header comments.
#pragma once

#include "workloads/graph/text_input.hpp"

#include <limits>

namespace tlmgpu::graph::detail {

// `text` without leading and trailing whitespace.
std::string_view trim(std::string_view text);
// A complete finite decimal number ("3", "-1.5", "2e3"; not "nan", "inf").
bool is_number(std::string_view token);

struct RowLayout {
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();

  bool csv = false;    // comma separated (the first data row has a comma)
  bool header = false; // the first data row names the columns
  size_t columns = 0;  // 0: no data row seen yet
  size_t weight_column = kNone;
  uint64_t first_line = 0;

  // Decides the layout from the first non-comment row. It is a header when
  // its first two fields are column names (source/target, from/to, ...), or
  // when it has three or more fields of which the first three are not
  // numbers (STRING's "protein1 protein2 combined_score"). With a header the
  // weight is the column named weight, weights, value, score or
  // combined_score, if any; without one it is the third column, if any.
  static RowLayout from_first_row(const LineReader& in, std::string_view text);
  // The fields of a data row; every row must have as many as the first.
  void split(const LineReader& in, std::string_view text, std::vector<std::string_view>& f) const;
};

// KONECT out.* files start with "% sym|asym|bip <weight type>" and then
// "% m n1 n2". sym: each undirected edge is listed once (the reader mirrors
// it); bip: the two sides number their vertices separately from 1, so the
// right side is moved past the left one (right id j becomes n1 + j).
struct KonectHeader {
  bool symmetric = false, bipartite = false;
  uint64_t left = 0; // n1

  void note(const LineReader& in, std::string_view comment);
};

} // namespace tlmgpu::graph::detail
