// Checks of simulation invariants that stay in release builds. -DNDEBUG
// (the Release build, CMakeLists.txt) removes assert and sc_assert; a broken
// invariant is a model bug that must stop the run with a clear message, not
// go on to corrupt results, so the model uses TLMGPU_CHECK instead. The cost
// is one predictable branch; none sits in an inner loop.
#pragma once

#include <stdexcept>
#include <string>

namespace tlmgpu {

struct InvariantError : std::logic_error {
  using std::logic_error::logic_error;
};

[[noreturn]] inline void invariant_failed(const char* condition, const char* file, int line) {
  std::string f = file;
  // Name the file from the source tree's root, not the build machine's path.
  for (const char* top : {"/models/", "/src/", "/include/", "/workloads/", "/tests/"})
    if (auto at = f.rfind(top); at != std::string::npos) {
      f = f.substr(at + 1);
      break;
    }
  throw InvariantError("internal error: model invariant `" + std::string(condition) +
                       "` failed at " + f + ":" + std::to_string(line) +
                       " (a simulator bug; please report it with the command line)");
}

} // namespace tlmgpu

#define TLMGPU_CHECK(condition)                                                                    \
  ((condition) ? void(0) : ::tlmgpu::invariant_failed(#condition, __FILE__, __LINE__))
