// Inside lda::sampler (sampler.hpp): what it coordinates. The state in kernel memory and
// which of the host's copies are stale (current() refreshes those), the estimator's unit
// (estimator_unit.hpp), the pooled sweeps (pooling.hpp), the log-likelihood's partial sums,
// and the z draw, checked and planned once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "butterfly/detail/draw.hpp"
#include "butterfly/lda/sampler.hpp"
#include "estimator_unit.hpp"
#include "pooling.hpp"

namespace butterfly::lda {

struct sampler::parts {
  parts(const sampler& s, state&& st)
      : steps(s),
        a(s.c_, s.b_, std::move(st)),
        pool(s.c_, s.b_, a),
        unit(make_estimator_unit({s.c_, steps, a})),
        likelihood(s.b_, size_of(likelihood_blocks_of(s.c_))) {}

  // The units' steps run through sampler::run.
  struct runs final : step_runner {
    explicit runs(const sampler& s) : step_runner(s.b_), s(s) {}
    void run(const steps::any& step, std::int64_t n) const override { s.run(step, n); }
    const sampler& s;
  };

  runs steps;
  chain_arrays a;
  sweep_pool pool;
  std::unique_ptr<estimator_unit> unit;
  state_array<double> likelihood;  // the partial sums per block of documents
  // theta_rows' document counts, kept between calls up to kept_row_counts entries.
  std::optional<state_array<std::int32_t>> row_counts;
  // The host's copies that the kernels have changed since current() last refreshed them.
  bool theta_stale = false, phi_stale = false, z_stale = false, kept_stale = false;
  void changed() { theta_stale = phi_stale = z_stale = true; }
  // The z draw, checked and planned once: the warp plan is uploaded once and cached by the
  // backend, and the kernels read the arrays above in place.
  draw_options draw;
  detail::topics_call call;
};

}  // namespace butterfly::lda
