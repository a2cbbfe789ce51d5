// Regenerates tests/golden/ from the serial reference:  make_goldens <dir>
// Run it only when the reference's output is meant to change, and say why in the commit.
#include <fstream>
#include <iostream>

#include "cases.hpp"

int main(int argc, char** argv) {
  using namespace butterfly;
  if (argc != 2) {
    std::cerr << "usage: make_goldens <output directory>\n";
    return 2;
  }
  for (const auto& c : conformance::all_cases()) {
    const std::string path = conformance::golden_path(argv[1], c);
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp);
      for (algorithm a : all_algorithms)
        for (int w : conformance::golden_widths) {
          const auto z = conformance::run_reference(c, a, w);
          out << name(a) << ' ' << w << ' ' << z.size();
          for (auto v : z) out << ' ' << v;
          out << '\n';
        }
      if (!out.flush()) {
        std::cerr << tmp << ": write failed\n";
        return 1;
      }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::cerr << path << ": rename failed\n";
      return 1;
    }
    std::cout << "wrote " << path << '\n';
  }
  return 0;
}
