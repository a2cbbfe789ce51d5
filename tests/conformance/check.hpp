// Tags and the bit-for-bit comparison shared by the conformance tests.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"

namespace butterfly::conformance {

struct Basic {
  static constexpr algorithm value = algorithm::basic;
};
struct Transposed {
  static constexpr algorithm value = algorithm::transposed;
};
struct Butterfly {
  static constexpr algorithm value = algorithm::butterfly;
};
struct WarpScan {
  static constexpr algorithm value = algorithm::warp_scan;
};

inline void require_equal(const std::vector<std::int32_t>& got,
                          const std::vector<std::int32_t>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      INFO(what << ": first difference at output " << i);
      REQUIRE(got[i] == want[i]);
    }
}

}  // namespace butterfly::conformance
