// Catch2 main for tests of the core and of the I/O and LDA code, which run anywhere.
#include "catch_session.hpp"

int main(int argc, char** argv) { return butterfly::test::run_catch_session(argc, argv); }
