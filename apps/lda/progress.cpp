#include "progress.hpp"

#include <unistd.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

namespace butterfly::app {
namespace {

std::string clock_text(double seconds) {
  const long s = std::lround(seconds);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace

progress::progress(std::uint32_t total, std::int64_t tokens, bool enabled, int processes)
    : total_(total),
      tokens_(tokens),
      enabled_(enabled),
      bar_(enabled && ::isatty(2)),
      processes_(processes),
      last_ll_(NAN) {}

void progress::report(std::uint32_t i, double seconds, double z_seconds,
                      double communication_seconds, double log_likelihood,
                      std::uint64_t copied_bytes) {
  elapsed_ += seconds;
  ++done_;
  if (!std::isnan(log_likelihood)) last_ll_ = log_likelihood;
  if (!enabled_) return;
  const double rate = seconds > 0 ? tokens_ / seconds : 0;
  const double eta = elapsed_ / done_ * (total_ - i);
  char ll[32] = "-";
  if (!std::isnan(last_ll_)) std::snprintf(ll, sizeof ll, "%.6e", last_ll_);
  if (bar_) {
    const int width = 30,
              filled = total_ ? static_cast<int>(std::lround(double(width) * i / total_)) : width;
    std::fprintf(stderr, "\r[%s%s] %u/%u  %.3g tokens/s  log-likelihood %s  ETA %s ",
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), i,
                 total_, rate, ll, clock_text(eta).c_str());
  } else {
    char communication[48] = "";
    if (processes_ > 1)
      std::snprintf(communication, sizeof communication, ", communication %.3f s",
                    communication_seconds);
    std::fprintf(stderr,
                 "iteration %u/%u  %.3f s (z draw %.3f s%s)  tokens/s %.0f  log-likelihood %s  "
                 "host<->device %" PRIu64 " bytes  ETA %s\n",
                 i, total_, seconds, z_seconds, communication, rate, ll, copied_bytes,
                 clock_text(eta).c_str());
  }
  std::fflush(stderr);
}

void progress::finish() {
  if (bar_) std::fprintf(stderr, "\n");
}

}  // namespace butterfly::app
