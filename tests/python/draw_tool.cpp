// The C++ side of the Python tests' cross-check: draws with the C++ API from .npy inputs, so
// test_draws.py can compare butterfly.draw_rows / draw_topics with it bit for bit.
//   draw_tool rows WEIGHTS.npy METHOD SEED ITERATION WIDTH OUT.npy
//   draw_tool topics THETA.npy PHI.npy OFFSETS.npy WORDS.npy METHOD SEED ITERATION WIDTH OUT.npy
// OFFSETS and WORDS are 1 x n float32 matrices (ids < 2^24 are exact in float32); OUT is
// 1 x n float32. A std::invalid_argument is printed to stderr and exits 3, so the tests can
// compare its message with the ValueError's.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/io/npy.hpp"

namespace {

template <class T>
std::vector<T> ids(const std::string& path) {
  const auto a = butterfly::io::read_npy(path);
  return {a.data.begin(), a.data.end()};
}

butterfly::draw_options options(char** arg) {
  butterfly::draw_options o;
  o.method = butterfly::parse_algorithm(arg[0]);
  o.seed = std::strtoull(arg[1], nullptr, 10);
  o.iteration = static_cast<std::uint32_t>(std::strtoul(arg[2], nullptr, 10));
  o.width = std::atoi(arg[3]);
  return o;
}

void write(const std::string& path, const std::vector<std::int32_t>& z) {
  const std::vector<float> f(z.begin(), z.end());
  butterfly::io::write_npy(path, f.data(), 1, static_cast<std::int64_t>(f.size()));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "rows" && argc == 8) {
      const auto w = butterfly::io::read_npy(argv[2]);
      std::vector<std::int32_t> out(static_cast<std::size_t>(w.rows));
      butterfly::draw_rows(w.data, static_cast<int>(w.cols), out, options(argv + 3));
      write(argv[7], out);
      return 0;
    }
    if (mode == "topics" && argc == 11) {
      const auto theta = butterfly::io::read_npy(argv[2]), phi = butterfly::io::read_npy(argv[3]);
      const auto offsets = ids<std::int64_t>(argv[4]);
      const auto words = ids<std::int32_t>(argv[5]);
      std::vector<std::int32_t> z(words.size());
      butterfly::draw_topics(theta.data, phi.data, static_cast<int>(theta.cols), offsets, words, z,
                             options(argv + 6));
      write(argv[10], z);
      return 0;
    }
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s", e.what());
    return 3;
  }
  std::fprintf(stderr, "usage: see the comment at the top of draw_tool.cpp\n");
  return 2;
}
