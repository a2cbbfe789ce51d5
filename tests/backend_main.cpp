// Catch2 main for tests that run the configured backend (the conformance suite and the
// public-API tests): when the backend cannot run here (no GPU), every test reports SKIPPED
// with the reason instead of passing. Listing the tests (ctest discovery) still works
// without a device.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "butterfly/butterfly.hpp"

int main(int argc, char** argv) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  const auto& cfg = session.configData();
  const bool listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags || cfg.listReporters;
  const std::string reason = butterfly::backend_unavailable_reason();
  if (!listing && !reason.empty()) {
    std::cout << "SKIPPED: backend '" << butterfly::backend_name() << "' cannot run here: " << reason
              << '\n';
    return 4;  // registered as SKIP_RETURN_CODE
  }
  return session.run();
}
