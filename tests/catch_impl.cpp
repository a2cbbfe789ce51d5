// Catch2's implementation, compiled once for every test program. Built without
// optimization: it is the framework, not code under test, and at -O3 it was the slowest
// object of the whole build, compiled again by each of the test mains.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "catch_session.hpp"

namespace {

int run(int argc, char** argv, const std::string& skip_reason, const std::string& fail_reason) {
  Catch::Session session;
  // Catch2 returns the number of failed assertions (up to 255), and exactly 4 would read as
  // ctest's SKIP_RETURN_CODE: every failure returns 1.
  if (session.applyCommandLine(argc, argv) != 0) return 1;
  const auto& cfg = session.configData();
  const bool listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags || cfg.listReporters;
  if (!listing && !fail_reason.empty()) {
    std::cout << "FAILED: " << fail_reason << '\n';
    return 1;
  }
  if (!listing && !skip_reason.empty()) {
    std::cout << "SKIPPED: " << skip_reason << '\n';
    return 4;
  }
  return session.run() == 0 ? 0 : 1;
}

}  // namespace

int butterfly::test::run_catch_session(int argc, char** argv, const std::string& skip_reason) {
  return run(argc, argv, skip_reason, {});
}

int butterfly::test::run_catch_session_with_data(int argc, char** argv, const std::string& data_dir,
                                                 const std::string& backend_reason) {
  if (!backend_reason.empty() || std::filesystem::is_directory(data_dir))
    return run(argc, argv, backend_reason, {});
  const std::string missing =
      "directory " + data_dir + " not found (../shared/data sits beside the repository)";
  const char* require = std::getenv("BUTTERFLY_REQUIRE_SHARED_DATA");
  if (require != nullptr && *require != '\0' && std::string(require) != "0")
    return run(argc, argv, {},
               missing + ", and BUTTERFLY_REQUIRE_SHARED_DATA is set: this machine must have it");
  return run(argc, argv, missing + " (set BUTTERFLY_REQUIRE_SHARED_DATA=1 to make this a failure)",
             {});
}
