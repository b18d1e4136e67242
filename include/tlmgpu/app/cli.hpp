// The `tlmgpu` command line as a library call (target tlmgpu::cli of the
// installed package). A program that registers blocks of its own
// (register_stage, register_block) before calling it is the tlmgpu command
// with those blocks: `list`, `describe`, `run` and `sweep` (whose points run
// this same program again, /proc/self/exe) all see them. See
// docs/writing-blocks.md, "Blocks outside the tree", and examples/custom-block.
#pragma once

namespace tlmgpu {

// Runs `argv[1]` (run, list, sweep, ...) with the rest of the arguments and
// returns the process exit code (docs/config.md, "Exit codes"); errors are
// one line on stderr, never an exception. The library also defines the
// `sc_main` symbol that Debian's libsystemc.so needs to link.
int cli_main(int argc, char** argv);

} // namespace tlmgpu
