// The random-traffic generator's own cost, without the memory system
// (issue 13 item 6): bench/bench.py's `traffic` case times the generators
// and the model together, so this program runs the same generators (the
// kernel-free TrafficCore: draw a request, apply it to the reference memory,
// check the reply) against a perfect memory that answers every request with
// what the reference expects, and reports CPU seconds. bench.py subtracts it
// to show what the model itself costs. Not a test: a number for
// docs/performance.md.
//
// usage: traffic_generator_bench [--requests N] [--generators G]
//            [--line B] [--sector B] [--seed S] [--footprint B]
// Defaults are the `traffic` case on titanv: 5000 requests per generator,
// 80 generators, 128 B lines of 32 B sectors, seed 1.
#include "models/traffic/traffic_core.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

using namespace tlmgpu;

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "traffic_generator_bench: %s\nusage: traffic_generator_bench [--requests N] "
               "[--generators G] [--line B] [--sector B] [--seed S] [--footprint B]\n",
               why);
  std::exit(2);
}

uint64_t number(const char* flag, const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (!*text || *end || v == 0)
    usage((std::string(flag) + ": expected a positive integer").c_str());
  return v;
}

} // namespace

int main(int argc, char** argv) {
  TrafficParams p;
  p.requests = 5000;
  uint64_t generators = 80, line = 128, sector = 32, seed = 1;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc) usage((std::string(argv[i]) + " needs a value").c_str());
    const std::string flag = argv[i];
    const uint64_t v = number(argv[i], argv[i + 1]);
    ++i;
    if (flag == "--requests")
      p.requests = v;
    else if (flag == "--generators")
      generators = v;
    else if (flag == "--line")
      line = v;
    else if (flag == "--sector")
      sector = v;
    else if (flag == "--seed")
      seed = v;
    else if (flag == "--footprint")
      p.footprint = uint32_t(v);
    else
      usage(("unknown option " + flag).c_str());
  }
  // The regions of the random-traffic workload (workloads/random_traffic).
  const Addr stride = std::max<Addr>(1 << 20, Addr(p.footprint) * 2);
  const Addr shared = Addr(generators) * stride + 64;
  std::vector<std::unique_ptr<TrafficCore>> cores;
  try {
    for (uint64_t g = 0; g < generators; ++g)
      cores.push_back(std::make_unique<TrafficCore>(p, unsigned(g), Addr(g) * stride, shared,
                                                    unsigned(line), unsigned(sector), seed));
  } catch (const std::exception& e) {
    usage(e.what());
  }
  const auto never_busy = [](Addr) { return false; };
  TrafficRequest r;
  uint64_t mismatches = 0;
  const double start = cpu_seconds();
  // Round robin over the generators, as the SMs' threads interleave.
  for (uint64_t i = 0; i < p.requests; ++i)
    for (auto& c : cores) {
      c->next(r, never_busy);
      // The perfect memory: the reply is what the reference expects.
      for (unsigned l = 0; l < r.access.lanes.size(); ++l)
        r.access.lanes[l].result = r.expect_results[l];
      if (!c->check(r, r.expect.data(), r.access).empty()) ++mismatches;
    }
  const double cpu = cpu_seconds() - start;
  const uint64_t total = p.requests * generators;
  std::printf("requests %llu\ncpu_s %.6f\nrequests_per_cpu_s %.0f\nmismatches %llu\n",
              static_cast<unsigned long long>(total), cpu, double(total) / std::max(cpu, 1e-9),
              static_cast<unsigned long long>(mismatches));
  return mismatches == 0 ? 0 : 1;
}
