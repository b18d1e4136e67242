// Shared by the litmus test files (litmus_suite.cpp, litmus_locks.cpp):
// the variables' addresses, bounded spins and the test factories.
#pragma once

#include "models/scoped/litmus.hpp"

#include <string>

namespace tlmgpu::scoped::litmus_detail {

// Variables live on separate lines (and L2 banks) unless a test says otherwise.
inline constexpr Addr F = 0x1000, Y = 0x2000, L = 0x3000, C = 0x4000, X = 0x5000, Z = 0x6000,
                      H = 0x7000, T = 0x7400, Q = 0x10000, R = 0x20000, FILL = 0x80000;
inline constexpr uint32_t kSpin = 400;

// The registers as "k=v k=v" (the outcome's name).
std::string kv(const LitmusState& s);

// Takes lock L: a wg CAS (owner) or a remote-acquire CAS of `v` (thief),
// retried after pauses of up to `pause` cycles.
Task<void> lock_wg(Wave& w, uint32_t pause);
Task<void> lock_remote(Wave& w, uint32_t v, uint32_t pause);

LitmusTest lock_counter();
LitmusTest lock_handoff();
LitmusTest release_refetch();
LitmusTest owner_holds_lock();
LitmusTest work_stealing();

} // namespace tlmgpu::scoped::litmus_detail
