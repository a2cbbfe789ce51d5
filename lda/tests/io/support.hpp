// Test helpers: a scratch directory with files made at test time, and a check that a call
// throws input_error whose message points at the right file and line.
#pragma once

#include <catch2/catch.hpp>

#include <stdlib.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "butterfly/io/error.hpp"

namespace io_test {

class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "butterfly-io-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  std::string path(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& root() const { return path_; }

  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(path(name), std::ios::binary) << content;
    return path(name);
  }
  std::string write_gz(const std::string& name, const std::string& content) const {
    gzFile f = gzopen(path(name).c_str(), "wb");
    REQUIRE(f != nullptr);
    REQUIRE(gzwrite(f, content.data(), static_cast<unsigned>(content.size())) ==
            static_cast<int>(content.size()));
    REQUIRE(gzclose(f) == Z_OK);
    return path(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace io_test

// `expr` must throw butterfly::io::input_error whose message starts with `where` (e.g.
// "PATH:7:") and contains `fragment`.
#define REQUIRE_INPUT_ERROR(expr, where, fragment)                  \
  do {                                                              \
    bool thrown_ = false;                                           \
    try {                                                           \
      (void)(expr);                                                 \
    } catch (const butterfly::io::input_error& e) {                 \
      thrown_ = true;                                               \
      const std::string message_ = e.what();                        \
      INFO("message: " << message_);                                \
      CHECK_THAT(message_, Catch::StartsWith(std::string(where)));  \
      CHECK_THAT(message_, Catch::Contains(std::string(fragment))); \
    }                                                               \
    if (!thrown_) FAIL("no input_error from " #expr);               \
  } while (false)
