// Catch2's implementation, compiled once for every test program. Built without
// optimization: it is the framework, not code under test, and at -O3 it was the slowest
// object of the whole build, compiled again by each of the test mains.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "catch_session.hpp"

int butterfly::test::run_catch_session(int argc, char** argv, const std::string& skip_reason) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  const auto& cfg = session.configData();
  const bool listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags || cfg.listReporters;
  if (!listing && !skip_reason.empty()) {
    std::cout << "SKIPPED: " << skip_reason << '\n';
    return 4;
  }
  return session.run();
}
