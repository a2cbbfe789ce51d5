"""Runs one pytest file for ctest: exit 4 (ctest: skipped) with the reason when pytest is
missing or when any test skipped, so that no skipped test is reported as passed."""
import sys

try:
    import pytest
except ImportError:
    print("SKIP: pytest is not installed for", sys.executable, "(Debian: python3-pytest)")
    sys.exit(4)


class SkipCounter:
    skipped = []

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            self.skipped.append(f"{report.nodeid}: {report.longrepr}")

    pytest_collectreport = pytest_runtest_logreport  # a whole module skipped


counter = SkipCounter()
code = pytest.main(["-q", "-rs", "-p", "no:cacheprovider", *sys.argv[1:]], plugins=[counter])
# pytest's 5 (no test ran) with skips: the whole module skipped (pytest.importorskip).
if code in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) and counter.skipped:
    print("SKIPPED (reported as skipped to ctest):", *counter.skipped, sep="\n  ")
    sys.exit(4)
# pytest's own 4 (a usage error) is a failure, not ctest's SKIP_RETURN_CODE.
sys.exit(0 if code == pytest.ExitCode.OK else 1)
