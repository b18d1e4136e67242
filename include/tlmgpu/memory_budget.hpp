// Resource budgets (issue 19 item 3). Arguments and inputs can ask for far
// more memory than the machine has (`stream n=4294967295` wanted 12 GiB, 4096
// SMs 2.3 GiB); the kernel then kills the process or the machine swaps, long
// after the mistake could have been named. So whatever allocates in
// proportion to an argument or an input estimates its bytes first and calls
// check_memory(), which refuses an estimate above the budget (`--max-memory`,
// by default half of the machine's RAM) with one line that names what asked
// and how much.
//
// Each estimate is checked on its own (no running total): the budget is a
// guard against a mistaken argument, not an allocator, and the estimates are
// deliberately rough (within a factor of about two of the peak RSS).
#pragma once

#include <cstdint>
#include <string>

namespace tlmgpu {

// Half of MemTotal in /proc/meminfo (8 GiB when it cannot be read).
uint64_t default_memory_budget();
// The budget in force: set_memory_budget()'s value, else the default.
uint64_t memory_budget();
void set_memory_budget(uint64_t bytes);

// "8G", "512M", "64k", "1.5GiB", "1000000" (bytes) -> bytes; powers of 1024.
// Throws ConfigError naming `what` on anything else or on 0.
uint64_t parse_memory_size(const std::string& text, const std::string& what);

// "11.7 GiB", "512 MiB", "300 bytes".
std::string format_bytes(uint64_t bytes);

// Throws ConfigError "<what> would take about <estimate>, more than
// --max-memory (<budget>)..." when estimate > memory_budget().
void check_memory(uint64_t estimate, const std::string& what);

// a * b and a + b clamped at UINT64_MAX, for estimates of absurd arguments.
constexpr uint64_t sat_mul(uint64_t a, uint64_t b) {
  return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}
constexpr uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

} // namespace tlmgpu
