#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "butterfly/io/error.hpp"
#include "butterfly/lda/checkpoint.hpp"

using namespace butterfly;

namespace {

std::string temp_path(const char* name) {
  return "lda_checkpoint_test_" + std::to_string(::getpid()) + "_" + name;
}

std::vector<char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

lda::checkpoint sample() {
  lda::checkpoint c;
  c.arguments = {"--topics", "3", "--docword", "x y.txt"};
  c.seed = 0x123456789abcdefULL;
  c.hyper = {3, 0.25, 0.125};
  c.method = "butterfly";
  c.corpus_checksum = 0xfeedULL;
  c.s.iteration = 17;
  c.s.theta = {0.5f, 0.25f, 0.25f};
  c.s.phi = {0.1f, 0.2f, 0.3f, 0.9f, 0.8f, 0.7f};
  c.s.z = {0, 2, 1, 1};
  c.history = {{5, -10.5, NAN}, {10, -9.25, 123.0}};
  return c;
}

// The message of the io::input_error that loading `path` throws ("" if none).
std::string load_error(const std::string& path) {
  try {
    lda::load_checkpoint(path);
  } catch (const io::input_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("lda: a checkpoint reads back what was saved", "[lda][checkpoint]") {
  const auto path = temp_path("roundtrip");
  const auto c = sample();
  lda::save_checkpoint(path, c);
  const auto r = lda::load_checkpoint(path);
  CHECK(r.arguments == c.arguments);
  CHECK(r.seed == c.seed);
  CHECK(r.hyper.num_topics == 3);
  CHECK(r.hyper.alpha == 0.25);
  CHECK(r.hyper.beta == 0.125);
  CHECK(r.method == c.method);
  CHECK(r.corpus_checksum == c.corpus_checksum);
  CHECK(r.s.iteration == 17);
  CHECK(r.s.theta == c.s.theta);
  CHECK(r.s.phi == c.s.phi);
  CHECK(r.s.z == c.s.z);
  REQUIRE(r.history.size() == 2);
  CHECK(r.history[1].iteration == 10);
  CHECK(r.history[1].perplexity == 123.0);
  CHECK(std::isnan(r.history[0].perplexity));
  std::remove(path.c_str());
}

// What the trainer saves for a chain whose theta and phi are z's (lda::sampler::holds_model):
// empty arrays read back empty (and clean under UBSan: an empty vector's data() may be null).
TEST_CASE("lda: a checkpoint with z alone reads back with empty theta and phi", "[lda][checkpoint]") {
  const auto path = temp_path("z_only");
  auto c = sample();
  c.s.theta.clear();
  c.s.phi.clear();
  c.history.clear();
  lda::save_checkpoint(path, c);
  const auto r = lda::load_checkpoint(path);
  CHECK(r.s.theta.empty());
  CHECK(r.s.phi.empty());
  CHECK(r.history.empty());
  CHECK(r.s.z == c.s.z);
  std::remove(path.c_str());
}

TEST_CASE("lda: a corrupted, truncated or foreign checkpoint is refused", "[lda][checkpoint]") {
  const auto path = temp_path("bad");
  lda::save_checkpoint(path, sample());
  const auto good = slurp(path);

  auto flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  spit(path, flipped);
  CHECK_THAT(load_error(path), Catch::Contains("checksum mismatch") && Catch::StartsWith(path + ":"));

  spit(path, std::vector<char>(good.begin(), good.end() - 20));
  CHECK_THAT(load_error(path), Catch::Contains("checksum mismatch"));

  spit(path, std::vector<char>(good.begin(), good.begin() + 5));
  CHECK_THAT(load_error(path), Catch::Contains("magic"));

  std::remove(path.c_str());
  CHECK_THAT(load_error(path), Catch::Contains("cannot open"));
}
