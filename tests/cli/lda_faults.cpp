// butterfly-lda-faults: butterfly-lda built from the same objects (butterfly-lda-objects)
// with failure hooks set from the environment, for the CLI and MPI tests:
//   BUTTERFLY_TEST_KILL=POINT:N     raise SIGKILL at POINT of iteration N, POINT one of
//                                   after-iteration, mid-checkpoint, after-checkpoint
//   BUTTERFLY_TEST_FAIL_RANK=R      rank R throws std::bad_alloc before its first count sum,
//                                   while the other ranks wait in that collective
// A malformed setting exits 2 before anything runs, so a typo in a test cannot pass as a
// run that was never killed.
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <new>
#include <optional>
#include <string>

#include "cluster.hpp"
#include "program.hpp"

namespace {

using butterfly::app::train_hooks;

std::optional<std::uint32_t> count_from(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9)
    return {};
  return static_cast<std::uint32_t>(std::stoul(text));
}

bool install_kill(const std::string& setting, train_hooks& hooks) {
  static const std::map<std::string, std::function<void(std::uint32_t)> train_hooks::*> points = {
      {"after-iteration", &train_hooks::after_iteration},
      {"mid-checkpoint", &train_hooks::mid_checkpoint},
      {"after-checkpoint", &train_hooks::after_checkpoint},
  };
  const auto colon = setting.find(':');
  const auto point = points.find(setting.substr(0, colon));
  const auto n = colon == std::string::npos ? std::nullopt : count_from(setting.substr(colon + 1));
  if (point == points.end() || !n) return false;
  hooks.*(point->second) = [n = *n](std::uint32_t i) {
    if (i == n) std::raise(SIGKILL);
  };
  return true;
}

bool install_rank_failure(const std::string& setting, train_hooks& hooks) {
  const auto rank = count_from(setting);
  if (!rank) return false;
  hooks.before_count_sum = [rank = static_cast<int>(*rank)] {
    if (butterfly::app::cluster::world().rank() == rank) throw std::bad_alloc();
  };
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  train_hooks hooks;
  const char* kill = std::getenv("BUTTERFLY_TEST_KILL");
  const char* fail_rank = std::getenv("BUTTERFLY_TEST_FAIL_RANK");
  if (kill && !install_kill(kill, hooks)) {
    std::fprintf(stderr,
                 "butterfly-lda-faults: bad BUTTERFLY_TEST_KILL='%s' (want after-iteration:N, "
                 "mid-checkpoint:N or after-checkpoint:N)\n",
                 kill);
    return 2;
  }
  if (fail_rank && !install_rank_failure(fail_rank, hooks)) {
    std::fprintf(stderr, "butterfly-lda-faults: bad BUTTERFLY_TEST_FAIL_RANK='%s' (want a rank)\n",
                 fail_rank);
    return 2;
  }
  return butterfly::app::run_program(argc, argv, hooks);
}
