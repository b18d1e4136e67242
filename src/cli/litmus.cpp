// `tlmgpu litmus`: runs the scoped-synchronization litmus suite
// (models/scoped/litmus_suite.cpp) over seeded schedules on each protocol
// variant and prints tests x variants with the outcomes seen. Exit 1 when a
// variant that should be correct (all but the norsp negative control) shows
// a forbidden outcome, so a mutation (--mutate) makes it fail.
#include "cli.hpp"

#include "models/scoped/litmus.hpp"

#include <boost/program_options.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>

namespace tlmgpu::cli {
namespace po = boost::program_options;
using namespace tlmgpu::scoped;

namespace {

// --set scoped.<key>=<value> against ScopedSpec's declarations.
struct SetVisitor {
  std::string key, value;
  bool found = false;
  template <class T, class D>
  void param(T& f, const char* name, D, Range r, const char*, const char*) {
    if (key != name) return;
    found = true;
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(value, &used);
    } catch (const std::exception&) {
    }
    if (used != value.size() || v < r.min || v > r.max || v != double(T(v)))
      throw ConfigError("--set scoped." + key + ": '" + value + "' is not a whole number in [" +
                        std::to_string(uint64_t(r.min)) + ", " + std::to_string(uint64_t(r.max)) +
                        "]");
    f = T(v);
  }
  void choice(std::string& f, const char* name, const char*, std::initializer_list<const char*> c,
              const char*) {
    if (key != name) return;
    found = true;
    std::string all;
    for (const char* x : c) {
      if (value == x) {
        f = value;
        return;
      }
      all += (all.empty() ? "" : "|") + std::string(x);
    }
    throw ConfigError("--set scoped." + key + ": '" + value + "' is not one of " + all);
  }
};

void apply_set(ScopedSpec& s, const std::string& kv) {
  auto eq = kv.find('=');
  if (eq == std::string::npos || kv.rfind("scoped.", 0) != 0)
    throw UsageError("--set " + kv + ": expected scoped.<key>=<value> (tlmgpu describe scoped)");
  SetVisitor v{kv.substr(7, eq - 7), kv.substr(eq + 1)};
  s.visit(v);
  if (!v.found) throw ConfigError("--set " + kv + ": unknown key scoped." + v.key);
}

} // namespace

int cmd_litmus(const Args& args) {
  po::options_description desc("options");
  desc.add_options()("test,t", po::value<std::vector<std::string>>(),
                     "run only these tests (repeatable)")(
      "variant,v", po::value<std::vector<std::string>>(),
      "protocols to run (repeatable; default cmp, norsp, brsp, srsp, srsp_opt)")(
      "seeds", po::value<uint32_t>()->default_value(100), "schedules per test and variant")(
      "seed", po::value<uint64_t>()->default_value(1), "first seed")(
      "mutate", po::value<std::string>(), "sabotage one protocol rule (seed-002 §6.7 D)")(
      "set", po::value<std::vector<std::string>>(), "scoped.<key>=<value> (repeatable)")(
      "outcomes", "list every outcome seen, not just the counts");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parse("litmus", "tlmgpu litmus [options]", args, desc, pos, vm)) return kExitOk;

  ScopedSpec spec = defaults<ScopedSpec>();
  for (const auto& s : strings(vm, "set"))
    apply_set(spec, s);
  Mutations mut;
  if (vm.count("mutate")) mut.set(vm["mutate"].as<std::string>());
  std::vector<std::string> variants = strings(vm, "variant");
  if (variants.empty()) variants = protocol_names();
  for (const auto& v : variants)
    parse_protocol(v);
  std::vector<std::string> tests = strings(vm, "test");
  for (const auto& t : tests) {
    bool known = false;
    for (const auto& l : litmus_suite())
      known |= l.name == t;
    if (!known)
      throw UsageError(
          "--test " + t +
          ": no such litmus test (tlmgpu litmus --help lists none; see models/scoped/README.md)");
  }
  const uint32_t seeds = vm["seeds"].as<uint32_t>();
  if (seeds == 0) throw UsageError("--seeds: must be at least 1");
  const uint64_t seed0 = vm["seed"].as<uint64_t>();
  const bool show = vm.count("outcomes") != 0;

  std::cout << "litmus: " << seeds << " schedules per cell, seeds " << seed0 << ".."
            << seed0 + seeds - 1 << ", " << spec.cus << " CUs (more where a test needs them)"
            << (mut.any() ? ", mutation " + vm["mutate"].as<std::string>() : std::string()) << "\n";
  std::cout << "cell: forbidden/runs (ok = none forbidden); norsp is the negative control\n\n";
  std::cout << std::left << std::setw(18) << "test";
  for (const auto& v : variants)
    std::cout << std::setw(12) << v;
  std::cout << "\n";
  bool failed = false;
  std::ostringstream details;
  for (const auto& t : litmus_suite()) {
    if (!tests.empty() && std::find(tests.begin(), tests.end(), t.name) == tests.end()) continue;
    std::cout << std::setw(18) << t.name;
    for (const auto& v : variants) {
      ScopedSpec s = spec;
      s.protocol = v;
      if (t.opt_only && v != "srsp_opt" && false) continue;
      LitmusResult r = run_litmus(t, s, mut, seeds, seed0);
      std::string cell =
          r.forbidden ? std::to_string(r.forbidden) + "/" + std::to_string(r.runs) : "ok";
      std::cout << std::setw(12) << cell;
      if (r.forbidden && v != "norsp") failed = true;
      if (r.forbidden || show) {
        details << t.name << " on " << v << ":";
        if (r.forbidden)
          details << " forbidden " << r.forbidden << "/" << r.runs << ", first at seed "
                  << r.first_forbidden_seed << " (" << r.first_forbidden << ")";
        details << "\n";
        for (const auto& [o, n] : r.outcomes)
          details << "    " << std::setw(8) << n << "  " << o << "\n";
      }
    }
    std::cout << "\n";
  }
  std::cout << "\n" << details.str();
  std::cout << (failed ? "litmus: FORBIDDEN outcomes on a protocol that must be correct\n"
                       : "litmus: no forbidden outcome on cmp, brsp, srsp, srsp_opt\n");
  return failed ? kExitFailed : kExitOk;
}

} // namespace tlmgpu::cli
