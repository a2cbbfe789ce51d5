#include <catch2/catch.hpp>

#include "butterfly/lda/checkpoint.hpp"

#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "butterfly/io/error.hpp"

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
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

lda::checkpoint sample() {
  lda::checkpoint c;
  lda::training_options& o = c.options;
  o.hyper = {3, 0.25, 0.125};
  o.iterations = 40;
  o.seed = 0x123456789abcdefULL;
  o.method = butterfly::algorithm::warp_scan;
  o.width = 4;
  o.estimator = lda::estimator::mh;
  o.burn_in = 2;
  o.start_topics = 0;  // given, unlike the average
  o.sweep_blocks = 5;
  o.phased_sweeps = 3;
  o.holdout = 0.125;
  o.eval_every = 5;
  o.fold_in_sweeps = 6;
  o.checkpoint_every = 7;
  o.top_words = 9;
  c.corpus = {"ldac", "/data/x y.dat", "/data/vocab", "", 1};
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
  const lda::training_options& o = r.options;
  CHECK(lda::mismatch(o, c.options).empty());
  CHECK(o.seed == c.options.seed);
  CHECK(o.hyper.num_topics == 3);
  CHECK(o.hyper.alpha == 0.25);
  CHECK(o.hyper.beta == 0.125);
  CHECK(o.iterations == 40);
  CHECK(o.method == butterfly::algorithm::warp_scan);
  CHECK(o.width == 4);
  CHECK(o.estimator == lda::estimator::mh);
  CHECK(o.burn_in == 2);
  CHECK(o.start_topics == std::optional<std::uint32_t>(0));
  CHECK(!o.average.has_value());
  CHECK(o.sweep_blocks == 5);
  CHECK(o.phased_sweeps == 3u);
  CHECK(o.holdout == 0.125);
  CHECK(o.eval_every == 5);
  CHECK(o.fold_in_sweeps == 6);
  CHECK(o.checkpoint_every == 7);
  CHECK(o.top_words == 9);
  CHECK(r.corpus.format == "ldac");
  CHECK(r.corpus.path == "/data/x y.dat");
  CHECK(r.corpus.vocab == "/data/vocab");
  CHECK(r.corpus.stopwords.empty());
  CHECK(r.corpus.min_df == 1);
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
TEST_CASE("lda: a checkpoint with z alone reads back with empty theta and phi",
          "[lda][checkpoint]") {
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
  CHECK_THAT(load_error(path),
             Catch::Contains("checksum mismatch") && Catch::StartsWith(path + ":"));

  spit(path, std::vector<char>(good.begin(), good.end() - 20));
  CHECK_THAT(load_error(path), Catch::Contains("checksum mismatch"));

  spit(path, std::vector<char>(good.begin(), good.begin() + 5));
  CHECK_THAT(load_error(path), Catch::Contains("magic"));

  std::remove(path.c_str());
  CHECK_THAT(load_error(path), Catch::Contains("cannot open"));
}

// Formats 1 and 2 stored the command line's words as the options: refused, naming the file
// and the format, whatever their content (a valid CRC included).
TEST_CASE("lda: a checkpoint of format 1 or 2 is refused with the reason", "[lda][checkpoint]") {
  const auto path = temp_path("old");
  lda::save_checkpoint(path, sample());
  for (const char version : {'1', '2'}) {
    auto old = slurp(path);
    old[7] = version;
    spit(path, old);
    CHECK_THAT(load_error(path), Catch::StartsWith(path + ": checkpoint format " + version) &&
                                     Catch::Contains("cannot be resumed by this version"));
  }
  auto future = slurp(path);
  future[7] = '6';
  spit(path, future);
  CHECK_THAT(load_error(path), Catch::Contains("format 6 is not one this version reads"));
  std::remove(path.c_str());
}

namespace {

// A changed image's CRC made again.
void seal(std::vector<char>& bytes) {
  const std::size_t body = bytes.size() - 8;
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(body));
  const std::uint64_t stored = crc;
  std::memcpy(bytes.data() + body, &stored, 8);
}

}  // namespace

// Format 4 is format 5 without phased_sweeps, format 3 format 4 without sweep_blocks: made here
// from a format-5 image by taking their four bytes out, they resume with no phased sweeps (and
// format 3 with one block) and every other option as saved.
TEST_CASE("lda: checkpoints of formats 3 and 4 read back without phased sweeps, 3 with one block",
          "[lda][checkpoint]") {
  const char format = GENERATE('3', '4');
  INFO("format " << format);
  const auto path = temp_path(format == '3' ? "format3" : "format4");
  auto c = sample();
  c.options.sweep_blocks = 0x0badf00d;
  c.options.phased_sweeps = 0x0badcafe;
  lda::save_checkpoint(path, c);
  auto bytes = slurp(path);
  const auto take_out = [&bytes](const std::string& four) {
    const std::string text(bytes.begin(), bytes.end());
    const auto at = text.find(four);
    REQUIRE(at != std::string::npos);
    REQUIRE(text.find(four, at + 1) == std::string::npos);
    bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                bytes.begin() + static_cast<std::ptrdiff_t>(at + 4));
  };
  take_out(std::string("\xfe\xca\xad\x0b", 4));
  if (format == '3') take_out(std::string("\x0d\xf0\xad\x0b", 4));
  bytes[7] = format;
  seal(bytes);
  spit(path, bytes);
  const auto r = lda::load_checkpoint(path);
  CHECK(r.options.phased_sweeps == 0u);
  CHECK(r.options.sweep_blocks == (format == '3' ? 1u : 0x0badf00du));
  c.options.phased_sweeps = 0;
  if (format == '3') c.options.sweep_blocks = 1;
  CHECK(lda::mismatch(r.options, c.options).empty());
  CHECK(r.options.iterations == c.options.iterations);
  CHECK(r.s.z == c.s.z);
  CHECK(r.history.size() == c.history.size());
  std::remove(path.c_str());
}

TEST_CASE("lda: a checkpoint naming an unknown estimator is refused", "[lda][checkpoint]") {
  const auto path = temp_path("estimator");
  lda::save_checkpoint(path, sample());
  auto bytes = slurp(path);
  // "mh" becomes "mx" and the CRC is made again, so only the name is wrong.
  const std::string text(bytes.begin(), bytes.end());
  const auto at = text.find(std::string("\x02\0\0\0\0\0\0\0mh", 10));
  REQUIRE(at != std::string::npos);
  bytes[at + 9] = 'x';
  seal(bytes);
  spit(path, bytes);
  CHECK_THAT(load_error(path),
             Catch::StartsWith(path + ": ") && Catch::Contains("unknown estimator 'mx'"));
  std::remove(path.c_str());
}

TEST_CASE("lda: options that change the chain are named by mismatch", "[lda][checkpoint]") {
  const lda::training_options a = sample().options;
  CHECK(lda::mismatch(a, a).empty());
  auto b = a;
  b.iterations = 80;
  b.eval_every = 1;
  b.checkpoint_every = 0;
  b.top_words = 3;
  CHECK(lda::mismatch(a, b).empty());  // the length and the schedules may change
  b = a;
  b.seed = 2;
  CHECK(lda::mismatch(a, b) == "seed 81985529216486895, this run 2");
  b = a;
  b.hyper.alpha = 0.25000001;
  CHECK(lda::mismatch(a, b) == "alpha 0.25, this run 0.25000000999999999");
  b = a;
  b.estimator = lda::estimator::collapsed;
  CHECK(lda::mismatch(a, b) == "estimator mh, this run collapsed");
  b = a;
  b.sweep_blocks = 4;
  CHECK(lda::mismatch(a, b) == "sweep blocks 5, this run 4");
  b = a;
  b.phased_sweeps = 50;
  CHECK(lda::mismatch(a, b) == "phased sweeps 3, this run 50");
  b = a;
  b.fold_in_sweeps = 7;  // the history's held-out perplexities were scored with 6
  CHECK(lda::mismatch(a, b) == "fold-in sweeps 6, this run 7");
  b.holdout = 0;
  CHECK(lda::mismatch(a, b) == "holdout 0.125, this run 0");
}
