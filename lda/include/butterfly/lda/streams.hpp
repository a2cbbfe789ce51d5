// The LDA's counter spaces of the counter-based randomness (detail/rng.hpp), beside the
// draw's stream::z: every random number of a chain is keyed by (seed, iteration, stream,
// index), so none depends on thread count, backend or rank count.
#pragma once

#include "butterfly/detail/rng.hpp"

namespace butterfly::lda::streams {

inline constexpr rng::stream theta{1};    // Gamma variates for theta
inline constexpr rng::stream phi{2};      // Gamma variates for phi
inline constexpr rng::stream holdout{3};  // which documents are held out
inline constexpr rng::stream fold_in{4};  // z and theta draws while estimating held-out theta
inline constexpr rng::stream phases{5};   // estimator::phased's keys, one per element and phase

}  // namespace butterfly::lda::streams
