// Replays the fuzzer's seed corpus (and any crash inputs saved there) through the same
// harness, so a normal ctest run guards against regressions without libFuzzer.
#include <filesystem>

#include "../fuzz/run_readers.hpp"
#include "support.hpp"

TEST_CASE("fuzz seeds: every reader accepts or rejects each seed cleanly", "[io][fuzz]") {
  io_test::temp_dir dir;
  int seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(BUTTERFLY_FUZZ_CORPUS)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string input(std::istreambuf_iterator<char>(in), {});
    INFO(entry.path().string());
    fuzz::run_readers(dir.root().string(), reinterpret_cast<const std::uint8_t*>(input.data()),
                      input.size());
    ++seeds;
  }
  CHECK(seeds >= 5);
}
