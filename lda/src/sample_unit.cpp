// estimator::sample (chain.hpp), the paper's uncollapsed Gibbs sampler: after each z draw,
//   theta[m,:] ~ Dirichlet(alpha + n_m,:)   phi[:,k] ~ Dirichlet(beta + n_:,k)
// by Gamma variates (sample_steps.hpp), theta row by row and phi column by column, the
// columns' sums over fixed word chunks added in chunk order.
#include "estimator_unit.hpp"

namespace butterfly::lda {
namespace {

class sample_unit final : public estimator_unit {
 public:
  explicit sample_unit(const context& x)
      : estimator_unit(x),
        sum_partial_(executor(), size_of(a_.chunks * a_.K)),
        g_theta_(executor(), a_.n_mk.size()),
        g_phi_(executor(), a_.n_wk.size()) {}

  double estimate(std::uint32_t i) override {
    const double combine_seconds = count(a_.holds);
    const int K = a_.K;
    const std::int64_t M = c_.part().num_docs(), V = c_.docs().vocab_size;

    steps::gamma_entries theta_variates{};
    theta_variates.prior = c_.hyper().alpha;
    theta_variates.counts = a_.n_mk.data();
    theta_variates.key = rng_key{c_.seed(), i, lda::streams::theta};
    theta_variates.index0 =
        static_cast<std::uint64_t>(c_.part().first_doc) * K;  // whole-corpus rows
    theta_variates.out = g_theta_.data();
    run(theta_variates, M * K);
    run(steps::dirichlet_rows{g_theta_.data(), K, a_.theta.data()}, M);

    steps::gamma_entries phi_variates{};
    phi_variates.prior = c_.hyper().beta;
    phi_variates.counts = a_.n_wk.data();
    phi_variates.key = rng_key{c_.seed(), i, lda::streams::phi};
    phi_variates.index0 = 0;
    phi_variates.out = g_phi_.data();
    run(phi_variates, V * K);
    run(steps::column_partials<double, double>{g_phi_.data(), V, K, sum_partial_.data()},
        a_.chunks * K);
    run(steps::sum_scale{sum_partial_.data(), a_.chunks, K, a_.scale.data()}, K);
    steps::dirichlet_columns columns{};
    columns.g = g_phi_.data();
    columns.scale = a_.scale.data();
    columns.K = K;
    columns.uniform = 1.0f / static_cast<float>(V);
    columns.out = a_.phi.data();
    run(columns, V * K);
    return combine_seconds;
  }

 private:
  state_array<double> sum_partial_;      // phi's column sums per word chunk
  state_array<double> g_theta_, g_phi_;  // the Gamma variates
};

}  // namespace

std::unique_ptr<estimator_unit> make_sample_unit(const estimator_unit::context& x) {
  return std::make_unique<sample_unit>(x);
}

}  // namespace butterfly::lda
