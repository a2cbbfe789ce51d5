// The body of the reader fuzz target, shared with the seed regression test in tests/io.
// The input is split at its first NUL byte: the part before is the main file (docword,
// LDA-C, text or .npy), the part after, if any, the vocabulary / stop-word file. Each
// reader may accept the input or throw input_error; anything else is a bug.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "butterfly/io/corpus.hpp"
#include "butterfly/io/npy.hpp"

namespace fuzz {

inline void write_file(const std::string& path, const char* data, std::size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

template <class F>
void expect_accept_or_input_error(F&& read) {
  try {
    read();
  } catch (const butterfly::io::input_error&) {
  }
}

// Every reader on one input; `dir` is a writable directory.
inline void run_readers(const std::string& dir, const std::uint8_t* data, std::size_t size) {
  const auto* bytes = reinterpret_cast<const char*>(data);
  std::size_t split = 0;
  while (split < size && bytes[split] != '\0') ++split;
  const std::string main_path = dir + "/input-" + std::to_string(::getpid());
  const std::string side_path = main_path + ".side";
  write_file(main_path, bytes, split);
  const bool has_side = split < size;
  if (has_side) write_file(side_path, bytes + split + 1, size - split - 1);
  const std::string side = has_side ? side_path : "";

  // Small limits keep a hostile count from asking for gigabytes within the fuzzer's RSS limit.
  butterfly::io::read_limits limits;
  limits.max_tokens = 1 << 20;
  limits.max_unused = 1 << 16;
  expect_accept_or_input_error([&] { butterfly::io::read_uci(main_path, side, limits); });
  expect_accept_or_input_error([&] { butterfly::io::read_ldac(main_path, side, limits); });
  butterfly::io::text_options options;
  options.stopwords_path = side;
  options.min_df = 1 + static_cast<int>(size % 3);
  expect_accept_or_input_error([&] { butterfly::io::read_text(main_path, options); });
  expect_accept_or_input_error([&] { butterfly::io::read_npy(main_path); });
  std::remove(main_path.c_str());
  if (has_side) std::remove(side_path.c_str());
}

}  // namespace fuzz
