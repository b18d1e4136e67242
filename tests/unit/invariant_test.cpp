#include "tlmgpu/invariant.hpp"

#include <catch2/catch.hpp>

// Release builds define NDEBUG; the model's invariant checks must survive it.
TEST_CASE("TLMGPU_CHECK stays in release builds and names the condition and place") {
  int slots = 2;
  CHECK_NOTHROW(TLMGPU_CHECK(slots == 2));
  CHECK_THROWS_AS(TLMGPU_CHECK(slots < 2), tlmgpu::InvariantError);
  CHECK_THROWS_WITH(TLMGPU_CHECK(slots < 2 && "no free slot"),
                    Catch::Contains("slots < 2 && \"no free slot\"") &&
                        Catch::Contains("tests/unit/invariant_test.cpp:") &&
                        Catch::Contains("internal error"));
#ifdef NDEBUG
  SUCCEED("built with NDEBUG: assert() would have vanished here");
#endif
}
