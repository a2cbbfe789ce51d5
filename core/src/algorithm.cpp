#include <stdexcept>
#include <string>

#include "butterfly/butterfly.hpp"

namespace butterfly {

std::string_view name(algorithm a) {
  switch (a) {
    case algorithm::basic: return "basic";
    case algorithm::transposed: return "transposed";
    case algorithm::butterfly: return "butterfly";
    case algorithm::warp_scan: return "warp_scan";
  }
  return "unknown";
}

algorithm parse_algorithm(std::string_view text) {
  std::string valid;
  for (algorithm a : all_algorithms) {
    if (name(a) == text) return a;
    valid += (valid.empty() ? "" : ", ") + std::string(name(a));
  }
  throw std::invalid_argument("unknown algorithm '" + std::string(text) + "' (valid: " + valid +
                              ")");
}

}  // namespace butterfly
