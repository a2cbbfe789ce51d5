// The one way every test program runs Catch2. The implementation (and Catch::Session, which
// Catch2 2 declares only there) is compiled once, in catch_impl.cpp.
#pragma once

#include <string>

namespace butterfly::test {

// Runs the Catch2 session on the command line. A non-empty `skip_reason` means the tests
// cannot run on this machine: unless the command line only lists tests (ctest discovery),
// prints "SKIPPED: <skip_reason>" and returns 4, the SKIP_RETURN_CODE every test has; any failure
// returns 1.
int run_catch_session(int argc, char** argv, const std::string& skip_reason = {});

// For test programs that need a directory of ../shared/data (the real corpora beside the
// repository): as run_catch_session with `backend_reason`, and, when the backend can run but
// `data_dir` is absent, skipped (4) saying so on a machine without ../shared. When the
// environment sets BUTTERFLY_REQUIRE_SHARED_DATA (to anything but 0 or empty; CI does, as it
// has ../shared), an absent directory is a failure instead: prints "FAILED: ..." and returns 1.
int run_catch_session_with_data(int argc, char** argv, const std::string& data_dir,
                                const std::string& backend_reason = {});

}  // namespace butterfly::test
