// The steps of one LDA iteration after the z draw (and the initial z before the first),
// each written once as a function of one element index (count_steps.hpp, mean_steps.hpp,
// sample_steps.hpp, collapsed.hpp, metropolis.hpp, hybrid.hpp, phases.hpp, likelihood_steps.hpp;
// the sampler's estimator units build them, the *_unit.cpp beside sampler.cpp): lda::sampler runs
// them on its executor (run_steps.hpp), as host loops over executor::for_each on host memory and as
// the device backend's grid-stride kernels on device memory; a step whose element is written
// for a subgroup (operator()(sg, i), collapsed_long_documents) runs each element on one
// subgroup: the host's lanes, or a device's warp. Every element writes only its
// own outputs, and every floating-point sum inside an element runs in a fixed order, so the
// trained model is the same bits on every backend, thread count and grid. On the host
// integer counts are each owned by one element (a document's row, a word's row); on a
// device they are spread over the tokens (token_topic_counts, token_partial_counts: one
// element per token, an integer atomic add), whose sums do not depend on the order of the
// adds, so the counts are the same.
//
// The iteration (chain.hpp) in these steps:
//   counts:  topic_counts (n_mk per document m, then n_wk per word w); on a device
//            zero_entries, then token_topic_counts (per token) and for mh's lists word_topics
//   mean:    posterior_mean_rows (theta), token_partials (on a device zero_entries +
//            token_partial_counts; with MPI column_partials<int32, int64>) + mean_scale (the
//            n_k per topic), posterior_mean_entries (phi)
//   sample:  gamma_entries (theta, then phi), dirichlet_rows (theta),
//            column_partials<double, double> + sum_scale + dirichlet_columns (phi)
//   collapsed: collapsed_documents (the z draw itself, lda/collapsed.hpp; long documents by
//            collapsed_long_documents, lda/collapsed_lanes.hpp), then n_mk and the
//            mean's n_k (scale, totals), word_buckets (from z; from n_wk with MPI; between
//            the blocks of a sweep word_bucket_moves, from the block's tokens) and
//            scale_sums; theta as in mean and phi by posterior_mean_words
//            (posterior_mean_entries with MPI), when asked for
//   mh:      as collapsed, with the words' lists (topic_counts' listed, or with MPI
//            word_topics) and mh_documents (lda/metropolis.hpp) in word_buckets' and
//            collapsed_documents' places
//   hybrid:  as collapsed, word_buckets with its running counts, and hybrid_documents
//            (lda/hybrid.hpp: collapsed's draw for short documents, MH for long ones)
//   phased:  document_proposals, word_phase (a batch of words at a time), the mean's n_k,
//            document_phase (a batch of documents at a time; lda/phases.hpp); the model as
//            collapsed's
//   evaluation: likelihood_blocks (the log-likelihood's partial sums)
#pragma once

#include <cstdint>
#include <variant>

#include "butterfly/lda/collapsed.hpp"
#include "butterfly/lda/collapsed_lanes.hpp"
#include "butterfly/lda/count_steps.hpp"
#include "butterfly/lda/hybrid.hpp"
#include "butterfly/lda/likelihood_steps.hpp"
#include "butterfly/lda/mean_steps.hpp"
#include "butterfly/lda/metropolis.hpp"
#include "butterfly/lda/phases.hpp"
#include "butterfly/lda/sample_steps.hpp"

namespace butterfly::lda::steps {

// One of the steps; a class (not an alias) so the backend seam can declare it.
class any : public std::variant<
                initial_topics, keep_topics, topic_counts, posterior_mean_rows,
                column_partials<std::int32_t, std::int64_t>, token_partials, mean_scale,
                posterior_mean_entries, posterior_mean_words, gamma_entries, dirichlet_rows,
                column_partials<double, double>, sum_scale, dirichlet_columns, likelihood_blocks,
                word_gaps, word_buckets, word_bucket_moves, scale_sums, collapsed_documents,
                collapsed_long_documents, word_topics, mh_documents, hybrid_documents,
                document_proposals, word_phase, document_phase, zero_entries<std::int32_t>,
                zero_entries<std::int64_t>, token_topic_counts, token_partial_counts> {
 public:
  using variant::variant;
};

}  // namespace butterfly::lda::steps
