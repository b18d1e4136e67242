// The one Catch2 main of the system tests. CTest runs each test case in its
// own process because SystemC elaborates once per process.
#define CATCH_CONFIG_MAIN
#include "tlmgpu/sim/no_sc_main.hpp"
#include <catch2/catch.hpp>
