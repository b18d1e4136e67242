// The one Catch2 main of the kernel-free unit tests.
#define CATCH_CONFIG_MAIN
#include "tlmgpu/sim/no_sc_main.hpp"
#include <catch2/catch.hpp>
