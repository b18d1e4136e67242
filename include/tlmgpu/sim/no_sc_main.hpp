// Debian's libsystemc.so defines main() and so needs an sc_main symbol, but
// tlmgpu's executables have their own main (CLI, Catch2) and start the kernel
// through run_simulation(). Include this in exactly one file per executable.
#pragma once

extern "C" int sc_main(int, char**) {
  return 2;
} // never called
