// `tlmgpu`: subcommand dispatch and the one place errors become exit codes.
// Every failure is one line on stderr, "tlmgpu: error: <message>", with the
// exit code of its class (cli.hpp, docs/config.md "Exit codes"): 2 for usage,
// configuration, input and output errors, 1 for a run that failed, 3 for an
// internal error (a bug in tlmgpu: please report it). A library function
// (include/tlmgpu/app/cli.hpp), not main(): main.cpp calls it, and so does a
// program that registers blocks of its own first (examples/custom-block).
#include "tlmgpu/app/cli.hpp"

#include "cli.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/file_io.hpp"
#include "tlmgpu/params.hpp"
#include "tlmgpu/sim/context.hpp"

#include <boost/program_options/errors.hpp>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>

#ifndef TLMGPU_VERSION
#define TLMGPU_VERSION "unknown"
#endif

namespace {

using namespace tlmgpu::cli;

struct Command {
  const char* name;
  int (*fn)(const Args&);
  const char* summary;
};

const Command kCommands[] = {
    {"run", cmd_run, "simulate a workload on a platform"},
    {"list", cmd_list, "show platforms, workloads and blocks"},
    {"describe", cmd_describe, "show the parameters of a block"},
    {"config", cmd_config, "print a platform's effective configuration as JSON"},
    {"topology", cmd_topology, "print a platform's blocks and bindings (text or Graphviz DOT)"},
    {"sweep", cmd_sweep, "run an experiment matrix from a JSON spec (docs/sweeps.md)"},
    {"report", cmd_report, "write an HTML report (LAB-paper-style plots) of a sweep"},
    {"determinism", cmd_determinism,
     "run seeds 1..N and count distinct output hashes (with jitter.enable: injected "
     "non-determinism)"},
    {"litmus", cmd_litmus,
     "run the scoped-synchronization litmus suite on each RSP protocol (models/scoped)"},
};

void usage(std::ostream& os) {
  os << "usage: tlmgpu <command> [options]\n"
        "       tlmgpu <command> --help\n"
        "       tlmgpu --version\n\ncommands:\n";
  for (const Command& c : kCommands) {
    std::string n = c.name;
    os << "  " << n << std::string(12 - n.size(), ' ') << c.summary << "\n";
  }
}

// Messages from libraries may span lines; the contract is exactly one.
std::string one_line(std::string s) {
  std::string out;
  bool gap = false;
  for (char c : s) {
    if (c == '\n' || c == '\r') {
      gap = !out.empty();
      continue;
    }
    if (gap) out += "; ", gap = false;
    out += c;
  }
  return out.empty() ? "unknown error" : out;
}

int report(const std::string& msg, int code) {
  std::cout.flush();
  std::cerr << "tlmgpu: error: " << one_line(msg) << std::endl;
  return code;
}

const Command& find_command(const std::string& cmd) {
  for (const Command& c : kCommands)
    if (cmd == c.name) return c;
  if (!cmd.empty() && cmd[0] == '-')
    throw UsageError("unknown option '" + cmd + "' (see 'tlmgpu --help')");
  std::vector<std::string> names;
  for (const Command& c : kCommands)
    names.emplace_back(c.name);
  const std::string m = tlmgpu::closest_match(cmd, names);
  throw UsageError("unknown command '" + cmd + "'" +
                   (m.empty() ? "" : " (did you mean '" + m + "'?)") + "; see 'tlmgpu --help'");
}

int dispatch(int argc, char** argv) {
  if (argc < 2) throw UsageError("missing command (see 'tlmgpu --help')");
  const std::string cmd = argv[1];
  const Args rest(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    if (cmd == "help" && !rest.empty()) return find_command(rest.front()).fn({"--help"});
    usage(std::cout);
    return kExitOk;
  }
  if (cmd == "-V" || cmd == "--version") {
    std::cout << "tlmgpu " << TLMGPU_VERSION << "\n";
    return kExitOk;
  }
  return find_command(cmd).fn(rest);
}

} // namespace

namespace tlmgpu {

int cli_main(int argc, char** argv) {
  using namespace cli;
  try {
    return dispatch(argc, argv);
  } catch (const UsageError& e) {
    return report(e.what(), kExitInput);
  } catch (const boost::program_options::error& e) {
    return report(e.what(), kExitInput);
  } catch (const tlmgpu::ConfigError& e) {
    return report(e.what(), kExitInput);
  } catch (const tlmgpu::OutputError& e) {
    return report(e.what(), kExitInput);
  } catch (const std::filesystem::filesystem_error& e) { // a path that cannot be used
    return report(e.what(), kExitInput);
  } catch (const tlmgpu::SimError& e) { // the simulation stopped: the run failed
    return report(e.what(), kExitFailed);
  } catch (const std::bad_alloc&) {
    return report("internal error: out of memory", kExitInternal);
  } catch (const std::exception& e) {
    return report(std::string("internal error: ") + e.what(), kExitInternal);
  } catch (...) {
    return report("internal error: unexpected exception", kExitInternal);
  }
}

} // namespace tlmgpu

// libsystemc.so ships its own main() that calls sc_main(); a program's own
// main() takes precedence, but the shared library still needs the symbol to
// link. It is defined here, beside cli_main, so that every program calling
// cli_main gets it from the static library without naming it. Nothing calls
// it except a SystemC-provided main, which would behave the same.
extern "C" int sc_main(int argc, char* argv[]) {
  return tlmgpu::cli_main(argc, argv);
}
