// Golden files: one per case, one line per (algorithm, width):
//   <algorithm> <width> <count> z0 z1 ...
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace butterfly::conformance {

using golden_table = std::map<std::pair<std::string, int>, std::vector<std::int32_t>>;

inline golden_table read_golden(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open golden file");
  golden_table t;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::istringstream ls(line);
    std::string alg;
    int width = 0;
    std::size_t count = 0;
    if (!(ls >> alg >> width >> count))
      throw std::runtime_error(path + ":" + std::to_string(n) +
                               ": expected '<algorithm> <width> <count> z...'");
    std::vector<std::int32_t> z(count);
    for (auto& v : z)
      if (!(ls >> v))
        throw std::runtime_error(path + ":" + std::to_string(n) + ": fewer than " +
                                 std::to_string(count) + " values");
    t[{alg, width}] = std::move(z);
  }
  return t;
}

}  // namespace butterfly::conformance
