// libFuzzer entry point: see run_readers.hpp for how one input feeds every reader, and
// CMakeLists.txt here for the build-and-run command.
#include <cstdlib>

#include "run_readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp != nullptr && *tmp ? tmp : "/tmp");
  }();
  fuzz::run_readers(dir, data, size);
  return 0;
}
