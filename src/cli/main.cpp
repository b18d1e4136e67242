// The `tlmgpu` binary: the command line (cli_main.cpp) with the built-in
// blocks only. A program with blocks of its own registers them and calls the
// same cli_main (examples/custom-block, docs/writing-blocks.md).
#include "tlmgpu/app/cli.hpp"

int main(int argc, char** argv) {
  return tlmgpu::cli_main(argc, argv);
}
