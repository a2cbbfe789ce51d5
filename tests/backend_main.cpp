// Catch2 main for tests that run the configured backend (the conformance suite and the
// public-API tests): when the backend cannot run here (no GPU), every test reports SKIPPED
// with the reason instead of passing. Listing the tests (ctest discovery) still works
// without a device.
#include <string>

#include "butterfly/butterfly.hpp"
#include "catch_session.hpp"

int main(int argc, char** argv) {
  const std::string reason = butterfly::backend_unavailable_reason();
  return butterfly::test::run_catch_session(
      argc, argv,
      reason.empty()
          ? reason
          : "backend '" + std::string(butterfly::backend_name()) + "' cannot run here: " + reason);
}
