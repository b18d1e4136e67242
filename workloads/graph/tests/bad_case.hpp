// A malformed graph file and the error it must give: one line, starting
// `path:line: `, naming the problem. Shared by the readers' malformed-input
// tests (malformed_test.cpp, malformed_formats_test.cpp).
#pragma once

#include "workloads/graph/readers.hpp"
#include "workloads/graph/tests/temp_files.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

namespace tlmgpu::test {

struct BadCase {
  const char* file; // the extension picks the reader through load_graph
  std::string content;
  uint64_t line;       // expected line in the message
  const char* problem; // expected substring of the problem
};

inline void check_rejected(const BadCase& c) {
  TempDir dir;
  const std::string path = dir.write(c.file, c.content);
  INFO("file " << c.file << " content:\n" << c.content);
  try {
    graph::load_graph(path, {});
    FAIL("accepted");
  } catch (const graph::GraphFormatError& e) {
    const std::string what = e.what();
    INFO("message: " << what);
    CHECK(what.find('\n') == std::string::npos);
    CHECK(what.rfind(path + ":" + std::to_string(c.line) + ": ", 0) == 0);
    CHECK(e.line() == c.line);
    CHECK(e.problem().find(c.problem) != std::string::npos);
  }
}

} // namespace tlmgpu::test
