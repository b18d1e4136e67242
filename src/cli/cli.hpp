// The `tlmgpu` subcommands. Each takes the arguments after its own name and
// returns the process exit code; errors are thrown and reported by main().
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/positional_options.hpp>
#include <boost/program_options/variables_map.hpp>

#include <filesystem>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace tlmgpu::cli {

// The exit codes of every command (docs/config.md, "Exit codes"); main()
// maps each class of error to one of them.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;   // a run's check failed or it stopped with a SimError;
                                        // a sweep point did not pass
inline constexpr int kExitInput = 2;    // usage, configuration, input or output error
inline constexpr int kExitInternal = 3; // a bug in tlmgpu

// A command-line mistake (exit code 2, like a ConfigError).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

int cmd_run(const Args& args);
int cmd_list(const Args& args);
int cmd_describe(const Args& args);
int cmd_config(const Args& args);
int cmd_topology(const Args& args);    // blocks.cpp
int cmd_sweep(const Args& args);       // sweep.cpp
int cmd_report(const Args& args);      // sweep.cpp
int cmd_determinism(const Args& args); // determinism.cpp
int cmd_litmus(const Args& args);      // litmus.cpp

// Shared by the commands (commands.cpp). parse: `args` against `desc`; false
// when --help was printed instead. resolve_platform: a path as given, or a
// platform name from `tlmgpu list` ("titanv") -> its file.
bool parse(const char* cmd, const char* usage, const Args& args,
           boost::program_options::options_description& desc,
           const boost::program_options::positional_options_description& pos,
           boost::program_options::variables_map& vm);
std::filesystem::path platforms_dir();
// -p/--platform and --set; strings(): a repeatable option's values.
void add_platform_options(boost::program_options::options_description& desc);
std::vector<std::string> strings(const boost::program_options::variables_map& vm, const char* key);
std::string resolve_platform(const std::string& arg);
// -j/--jobs, declared as po::value<long long> (an unsigned option would turn
// "-1" into 4294967295): 1..4096, else a UsageError.
unsigned jobs_option(const boost::program_options::variables_map& vm);
// A whole number in [min, max] given as text (UsageError naming `what`).
uint64_t parse_count(const std::string& s, const char* what, uint64_t min, uint64_t max);
// blocks.cpp: the block types and parameter groups (`list`), one of them
// with its ports and parameters (`describe`; ConfigError if unknown).
void list_blocks(std::ostream& os);
void describe(const std::string& name, std::ostream& os);
std::string describable_names();

} // namespace tlmgpu::cli
