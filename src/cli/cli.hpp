// The `tlmgpu` subcommands. Each takes the arguments after its own name and
// returns the process exit code; errors are thrown and reported by main().
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace tlmgpu::cli {

// A command-line mistake (exit code 2, like a ConfigError).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

int cmd_run(const Args& args);
int cmd_list(const Args& args);
int cmd_describe(const Args& args);
int cmd_config(const Args& args);

} // namespace tlmgpu::cli
