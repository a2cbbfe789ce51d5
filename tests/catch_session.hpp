// The one way every test program runs Catch2. The implementation (and Catch::Session, which
// Catch2 2 declares only there) is compiled once, in catch_impl.cpp.
#pragma once

#include <string>

namespace butterfly::test {

// Runs the Catch2 session on the command line. A non-empty `skip_reason` means the tests
// cannot run on this machine: unless the command line only lists tests (ctest discovery),
// prints "SKIPPED: <skip_reason>" and returns 4, the SKIP_RETURN_CODE every test has.
int run_catch_session(int argc, char** argv, const std::string& skip_reason = {});

}  // namespace butterfly::test
