// One Markov chain of the uncollapsed Gibbs sampler for LDA of the paper's evaluation: its
// definition (lda::chain: documents, hyperparameters, seed, sampler_options, shard) and its
// state. One iteration (estimator::collapsed and mh draw z differently: see estimator):
//   1. z[t] ~ theta[m,:] * phi[w,:]            (butterfly's draw on the configured backend)
//   2. count n_mk, n_wk (and n_k)              from z
//   3. theta[m,:] ~ Dirichlet(alpha + n_m,:)   phi[:,k] ~ Dirichlet(beta + n_:,k)
//      (or their means, estimator::mean)
// Steps 2 and 3 are lda/steps.hpp; lda::sampler (sampler.hpp) runs the iterations where the
// backend keeps its memory.
// The state after iteration i is a pure function of (seed, i, corpus, hyperparameters,
// sampler_options): every random number is keyed by (seed, iteration, stream, index), and every
// reduction runs over fixed chunks combined in chunk order, so any thread count, backend or
// grid gives the same bits (which is also what makes checkpoint/resume exact).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"

namespace butterfly::lda {

struct hyperparameters {
  int num_topics = 20;
  double alpha = 0.1;  // symmetric Dirichlet prior on each theta[m,:]
  double beta = 0.01;  // symmetric Dirichlet prior on each phi[:,k]
};
// Throws std::invalid_argument naming the bad value.
void check(const hyperparameters& h);

// How step 3 turns the counts into theta and phi.
//   sample: a draw from the Dirichlet posterior (Gamma variates), the paper's sampler.
//   mean:   the posterior mean, theta[m,k] = (n_mk + alpha) / (n_m + K alpha) and
//           phi[w,k] = (n_wk + beta) / (n_k + V beta): "mean-for-mode estimation" (Tristan,
//           Huang, Wick, Steele, ICML 2015). No random numbers, so no Gamma variates; the
//           chain is no longer a Gibbs sampler of the joint posterior but reaches a given
//           held-out perplexity in fewer and cheaper iterations (bench/RESULTS.md).
//   collapsed: theta integrated out: each document's tokens are drawn in order from
//           (n_mk + alpha) (n_wk + beta) / (n_k + V beta), the document's counts updated
//           after each token, the word counts the previous iteration's, both without the
//           token itself (partially collapsed Gibbs, lda/collapsed.hpp). O(K / 64 + the
//           topics the document and the word share) per token instead of O(K), and it
//           mixes better; sampler_options' method and width
//           (the butterfly draw's) do not apply. theta and phi are the posterior means of
//           the counts, as in mean.
//   mh:     collapsed's chain, each token moved by Metropolis-Hastings proposals from its
//           document and its word instead of drawn from its full conditional (LightLDA,
//           WarpLDA; lda/metropolis.hpp): O(1) per token whatever K and the document, the
//           same stationary distribution, slower mixing per sweep.
//   hybrid: collapsed's chain and tables, each document swept by collapsed's exact draw or,
//           where it is longer than sampler_options::long_document (by default every
//           document), by mh's proposals read from collapsed's compact word tables
//           (lda/hybrid.hpp): no V x K array, and no sweep's cost per token grows with K or a
//           document's topics. The choice by length alone keeps the stationary distribution.
//           Its model is made from z, as collapsed's. For large K (10,000).
//   phased: Metropolis-Hastings in WarpLDA's two phases (lda/phases.hpp): a word phase (each
//           word's tokens take or keep a proposal from their documents, against the word's
//           counts) and a document phase (each document's tokens take or keep a proposal from
//           their words, against the document's counts), every count an element reads built
//           in its own scratch: O(1) per token, and its reads of the corpus in runs. The held
//           side is the other phase's counts (collapsed holds the word counts for a sweep).
//           Its model is made from z, as collapsed's. With a count combiner each process
//           runs the word phase of its own words on every token's topics, which the
//           combiner sums (phased_unit.cpp).
enum class estimator { sample, mean, collapsed, mh, hybrid, phased };
// "sample", "mean", "collapsed", "mh", "hybrid", "phased"; std::invalid_argument naming the
// value otherwise.
estimator parse_estimator(const std::string& name);
const char* estimator_name(estimator e);

// estimator::hybrid's default sampler_options::long_document: 0, every document moved by
// Metropolis-Hastings. Measured (bench/journal/2026-11-28.md): where the hybrid pays, at
// K = 10,000, the exact draw's K / 64 words per token cost more than the MH moves for short
// documents too (20news: 5.1-6.7 s per iteration with 256, 2.4-2.9 s with 0); at K = 1000 the
// exact draw is the better sweep even for nips17's 1,321-token documents, and collapsed is.
inline constexpr std::uint32_t hybrid_long_document = 0;

// How the sampler runs the chain. With the seed, the corpus and the hyperparameters these
// define the trained model bit for bit.
struct sampler_options {
  algorithm method = algorithm::butterfly;  // how z is drawn
  int width = 0;  // lanes per subgroup of the z draw; 0 = the backend's native width
  // How theta and phi come from the counts (and, for collapsed and mh, how z is drawn).
  lda::estimator estimator = lda::estimator::sample;
  // estimator::collapsed and mh: iterations 1 .. burn_in draw z as estimator::mean does (the
  // butterfly's dense draw from the posterior means: O(K) per token, but fast where K is
  // small and before the documents' topics have become few), the rest are sweeps.
  // The chain equals the mean estimator's up to iteration burn_in.
  std::uint32_t burn_in = 0;
  // Iteration 0's z: 0 = every token's topic uniform over K (the paper's start); S > 0 = each
  // document's first S tokens' topics uniform and each later token one of theirs, so every
  // document starts with at most S topics (steps::initial_topics). Any estimator; the
  // trainer's default is default_start_topics.
  std::uint32_t start_topics = 0;
  // The model of a chain that holds only z (estimator::collapsed without a burn-in; see
  // pooled_sweeps): with average >= 2 and a run of `iterations` >= pooling_from, theta and phi
  // after its last iteration are the posterior means of the topics of that sweep and of
  // average - 1 earlier ones, pooled (their counts added, the priors times average). 0 or 1:
  // the last sweep's alone. z does not depend on either.
  std::uint32_t average = 1;
  std::uint32_t iterations = 0;  // the run's length, for average
  // estimator::hybrid: the longest document its sweeps draw exactly; the tokens of longer ones
  // move by Metropolis-Hastings (lda/hybrid.hpp). Part of the chain's definition; the trainer
  // keeps the default, so checkpoints do not store it.
  std::uint32_t long_document = hybrid_long_document;
  // estimator::collapsed and hybrid: each sweep in this many blocks of documents, block b the
  // corpus's documents [M b / B, M (b + 1) / B), the word counts and n_k counted again from z
  // before each block after the first (n_k counted, the word tables brought up to date from the
  // last block's tokens: 1-7 % of a sweep each; with a count combiner every count). So a
  // block's documents see the topics that the blocks before it drew in this sweep, where with
  // 1 every document sees every other's topics of the previous iteration. Documents within a
  // block stay independent: the same bits on any thread count, rank count or device. Why: where
  // a topic's counts are mostly a few documents' (few documents per topic, long documents), a
  // sweep moves those documents together against counts none of them still has, and the chain
  // settles higher (bench/RESULTS.md, nips17 at K = 1000).
  std::uint32_t sweep_blocks = 1;
  // estimator::collapsed: its first phased_sweeps sweeps (iterations burn_in + 1 ..
  // burn_in + phased_sweeps) drawn as estimator::phased draws them, the rest by collapsed's
  // sweep: a schedule of two exact sweeps of the same chain, so the chain keeps its stationary
  // distribution. Why: phased's sweep costs O(1) per token from the start, where collapsed's
  // first sweeps cost per token with a long document's hundreds of starting topics; collapsed's
  // sweeps settle lower once the documents' topics are few (default_phased_sweeps). With a
  // count combiner as phased.
  std::uint32_t phased_sweeps = 0;
  // estimator::collapsed: documents of at least this many tokens are swept by a subgroup, its
  // lanes over the document's topics (steps::collapsed_long_documents, lda/collapsed_lanes.hpp),
  // the others by a thread each. Both draw the same topics, so this changes the time a sweep
  // takes, not the model. 0: default_subgroup_from of the executor.
  std::uint32_t subgroup_from = 0;
};
// sampler_options::subgroup_from where it is 0. On a device 1024 tokens: such a document keeps its
// thread 20 times as long as wiki-lead's average one (51 tokens), and the longest document is
// where a sweep's time goes (wiki-lead's, 17,250 tokens, is its whole sweep on a GPU by the
// runbook's model); most documents of a long-document corpus (nips17: 1,321 tokens on average)
// get a warp. Not yet measured on a GPU (bench/gpu/predictions.tsv). On the host none: there
// the lanes of one thread sweep slower than the thread (bench/RESULTS.md).
inline constexpr std::uint32_t device_subgroup_from = 1024;
inline constexpr std::uint32_t host_subgroup_from = 0xffffffffu;
// The most topics of a chain that sweeps collapsed's word tables (collapsed, hybrid): their
// ranks are 16-bit (steps::word_buckets), as are the pooled sweeps' topics.
inline constexpr int max_table_topics = 1 << 16;
// The most blocks a sweep may be cut into (sampler_options::sweep_blocks).
inline constexpr std::uint32_t max_sweep_blocks = 1024;

// Runs shorter than this keep the last sweep's model: a chain that still moves is worse
// averaged (held-out perplexity +0.5 % after 50 iterations, +2 % after 20 on wiki-lead at
// K = 1000; -0.4 to -1.0 % from 100 on ap, 20news and wiki-lead).
inline constexpr std::uint32_t pooling_from = 100;
// The most sweeps a model pools (each costs 2 bytes per token).
inline constexpr std::uint32_t max_average = 16;

// The iterations before the last whose z the model pools (sampler_options::average), in
// increasing order: average - 1 of them, d = max(1, iterations / (8 (average - 1))) apart,
// the last d before `iterations`, so the pooled sweeps span the run's last eighth. Empty
// where the chain keeps the last sweep's model (average <= 1, a run shorter than
// pooling_from, or a model not made from z).
std::vector<std::uint32_t> pooled_sweeps(const sampler_options& how);

// Whether estimator e keeps collapsed's compact word tables of z (collapsed, hybrid, phased):
// the chains that keep no V x K n_wk in one process, their model made from z and the tables.
bool sweeps_word_tables(estimator e);
// Whether sampler_options::sweep_blocks applies to estimator e (collapsed, hybrid: a sweep of
// documents against the word tables).
bool sweeps_in_blocks(estimator e);

// Whether a chain's theta and phi are made from z where they are read (estimator::collapsed,
// hybrid or phased without a burn-in: its iterations read only z and the tables made from it),
// rather than kept by the sampler (sampler::holds_model); only such a chain pools sweeps (average).
bool model_from_z(estimator e, std::uint32_t burn_in);

// The average of butterfly-lda train and butterfly.LDA unless one is given: 4 where the model
// is made from z (model_from_z), else 1.
std::uint32_t default_average(estimator e, std::uint32_t burn_in);

// Training documents per topic below which a topic's counts are mostly a few documents': there
// a sweep that moves every document against held counts settles higher, so collapsed sweeps
// in blocks (default_sweep_blocks).
inline constexpr std::int64_t few_documents_per_topic = 4;

// The sampler_options::phased_sweeps of butterfly-lda train and butterfly.LDA for collapsed,
// unless given, on a training corpus of num_docs documents, num_tokens tokens and K =
// num_topics, where the documents number at least K: 50 where they average at least
// phased_from_length tokens (long documents), 10 where they are shorter (20 from K =
// more_phased_from_topics); else 0. Why (2
// threads, against WarpLDA the same hour, bench/RESULTS.md): collapsed's first sweeps pay per
// token for the topics a document and a word start with, where phased's cost O(1) per token
// from the start but settle higher (nips17 K = 1000: 1,181.9 after 800 of them, collapsed
// 1,149.5 after 300). A long document starts with hundreds of topics: with 50 phased sweeps
// first nips17 is below WarpLDA's curve at every time measured from 1.9 s at K = 1000 (2.2
// documents per topic; collapsed alone above it for 6-9 s) and reaches WarpLDA's final at 0.64x
// its time (collapsed 0.70x; 25 and 100 sweeps 0.60x and 0.62x). On short documents (ap, 20news,
// wiki-lead: 51-243 tokens) 10 are enough: wiki-lead K = 1000 below WarpLDA's curve from 2.3 s
// (collapsed alone above it at 4.7-6.2 s, 25 and 50 sweeps end 0.6 % and 1.1 % higher after 200
// iterations), and on all of them at K = 240 and 1000 below it from the first point, finals
// within -1.0 % to +0.3 % of collapsed alone's. With few documents per topic the phases leave
// the chain where collapsed's sweeps are slow to leave: nips17 at K = 10,000 (0.2 per topic, 50
// sweeps) 1,239.4 after 150 iterations (41.3 s) against collapsed alone's 1,217.8 after 60
// (30.0 s); 20news at K = 10,000 (1.7 per topic, 10 sweeps) 1.0-1.3 % above collapsed alone
// after 55-60 iterations but 0.15 % after 200 (1,090.7 against 1,089.0, in 0.94x the time) and
// sooner to WarpLDA's perplexities. At K = 10,000 10 are too few on short documents: their
// documents and words still hold many topics, so collapsed's first sweeps cost 9x a phased
// one (3.6-4.3x at K = 1000), and 20news was above WarpLDA's curve at 5.0-5.9 s (+23.5 at
// 5.0 s); with 20 it is below it from 5 s (within the noise at 5.0-5.1 s), 0.37 % higher after
// 200 iterations (1,094.7 against 1,090.7). The training likelihood of wiki-lead at K = 10,000
// agrees; at K = 1000 20 gain nothing (20news) or lose (ap). The thresholds sit between the
// values measured: length between 243 and 1,321 tokens, documents per topic between 0.2 and
// 1.7, K between 1000 and 10,000.
// A number of sweeps, not a share of the run: z at iteration i is the same for a run of any
// length.
inline constexpr std::uint32_t phased_from_length = 400;
inline constexpr std::uint32_t long_document_phased_sweeps = 50;
inline constexpr std::uint32_t short_document_phased_sweeps = 10;
inline constexpr int more_phased_from_topics = 4096;
inline constexpr std::uint32_t many_topics_short_document_phased_sweeps = 20;
std::uint32_t default_phased_sweeps(std::int64_t num_docs, std::int64_t num_tokens, int num_topics);

// The start_topics of butterfly-lda train and butterfly.LDA unless one is given, for a
// training corpus of num_docs documents and K topics: 1 where there are at least 128 documents
// per topic, 4 where there are at least 16, else 0 (the uniform start). Starting each document
// with S topics seeds each topic with the tokens of about num_docs * S / K documents. Fewer
// start topics make the model better early (20news and wiki-lead, 5-10 iterations: S = 4 4-13 %
// below the uniform start, S = 1 another 4-11 % below S = 4), but where a topic starts from the
// tokens of few documents the chain keeps their imprint and is worse later: with S = 4, ap at
// K = 1000 (about 9 per topic) 1.5 % after 400 iterations; with S = 1, 20news at K = 240 (70)
// 0.5-0.6 % at 100-150 iterations and 20news at K = 1000 (17) 0.4 % at 90-200; wiki-lead at K
// = 240 (238) no worse than another seed. S = 2 is not used: on wiki-lead at K = 1000 (57 per
// topic) it ended 1.0 % above S = 4 after 200 iterations on two seeds (bench/journal/).
std::uint32_t default_start_topics(std::int64_t num_docs, int num_topics);

// The sweep_blocks of butterfly-lda train and butterfly.LDA unless one is given, for
// estimator e and a training corpus of num_docs documents and K topics: 16 for the estimators
// that sweep in blocks (sweeps_in_blocks) where there are fewer than 4 documents per topic,
// else 1. Where a topic's counts are two or three documents' the blocks make the chain settle
// lower and reach a given level sooner (WarpLDA's final level in 0.49x its time on ap at
// K = 1000, 2.0 documents per topic, against 0.69x with 1 block; 0.63x on nips17 at K = 1000,
// 2.2 per topic, which 1 block never reaches); at 8.4 per topic (ap, K = 240) they already
// cost more time than they gain (0.33x against 0.27x) (bench/journal/2026-11-28.md).
std::uint32_t default_sweep_blocks(estimator e, std::int64_t num_docs, int num_topics);

// Documents as the sampler sees them: CSR over word ids in [0, vocab_size).
struct documents {
  span<const std::int64_t> doc_offsets;  // M + 1 entries
  span<const std::int32_t> words;        // N entries
  std::int64_t vocab_size = 0;
  std::int64_t num_docs() const {
    return doc_offsets.empty() ? 0 : std::int64_t(doc_offsets.size()) - 1;
  }
  std::int64_t num_tokens() const { return std::int64_t(words.size()); }
};

// An owning version, for documents the program builds (held-out splits, remapped input).
struct document_set {
  std::vector<std::int64_t> doc_offsets{0};
  std::vector<std::int32_t> words;
  std::int64_t vocab_size = 0;
  documents view() const { return {doc_offsets, words, vocab_size}; }
};

// Documents [first_doc, end_doc) of a corpus, and their tokens [first_token, end_token):
// the part one process of a distributed run owns. A whole corpus is the shard of one part.
struct shard {
  std::int64_t first_doc = 0, end_doc = 0;
  std::int64_t first_token = 0, end_token = 0;
  std::int64_t num_docs() const { return end_doc - first_doc; }
  std::int64_t num_tokens() const { return end_token - first_token; }
};

// Documents per block of the log-likelihood sum: its partial sums are kept per block and
// added in block order, so shard boundaries fall on block boundaries.
inline constexpr std::int64_t likelihood_block = 64;

// Part `part` of `parts` contiguous shards with about N / parts tokens each, cut at
// likelihood_block boundaries (so a part may be empty when documents are few).
shard shard_of(const documents& docs, int parts, int part);
inline shard whole(const documents& docs) { return shard_of(docs, 1, 0); }

// Sums the word-topic counts of every process in place (V x K int32), so that each holds
// the counts of the whole corpus: an MPI_Allreduce in a distributed run. The phased sweeps
// also sum every token's topics through it (one process writes each, the others zeros).
// Integer sums do not depend on the order, which keeps phi bit-identical for any number of
// processes.
using count_combiner = std::function<void(std::int32_t* counts, std::size_t n)>;

struct state {
  std::uint32_t iteration = 0;  // iterations completed; 0 is the initial state
  // theta and phi may be empty in a state given to lda::sampler where the sampler makes them
  // from z (sampler::holds_model: a checkpoint of the default collapsed chain holds z alone).
  std::vector<float> theta;     // M x K row-major, each row sums to 1 (the shard's rows)
  std::vector<float> phi;       // V x K row-major, each column sums to 1
  std::vector<std::int32_t> z;  // N topic assignments of the last iteration (the shard's)
  // The topics of the pooled_sweeps already run (iteration at or after them), sweep by sweep,
  // N each: what the model pools besides z (empty where nothing is pooled).
  std::vector<std::uint16_t> kept;
};

struct iteration_seconds {
  double z_draw = 0;   // the z draw (sampler::iterate: the backend's draw, checked once)
  double combine = 0;  // count_combiner (communication in a distributed run)
  double rest = 0;     // counts and Dirichlet draws
};

// Partial sums added in index order: the one way per-block partials become a total, in one
// process or after they are gathered from many.
double ordered_sum(const std::vector<double>& partials);

// The definition of one Markov chain: the documents, the hyperparameters, the seed, the
// sampler_options, the shard and the count combiner (with the shard's CSR helpers built from
// them). The state after iteration i is a pure function of it (and of i); an lda::sampler
// (sampler.hpp) runs the iterations.
class chain {
 public:
  // docs must outlive the chain. Its z and theta are those of the documents of `part`
  // (whole(docs) by default; its first_doc a multiple of likelihood_block), its phi is drawn
  // from the counts `combine` returns (those of `part` alone by default). Every random number
  // is keyed by global document and token numbers, so the shards of a distributed run
  // together draw exactly what one process drawing the whole corpus draws.
  chain(documents docs, hyperparameters h, std::uint64_t seed, sampler_options how);
  chain(documents docs, hyperparameters h, std::uint64_t seed, sampler_options how, shard part,
        count_combiner combine);

  // Conveniences that run an lda::sampler (sampler.hpp) on the configured backend for one
  // iteration. On a GPU build each call copies the state to the device and back; a training
  // loop keeps an lda::sampler instead.
  // Iteration 0: z at random (sampler_options::start_topics), then theta and phi drawn from
  // the counts.
  state initial_state() const;
  // Advances s by one iteration.
  iteration_seconds iterate(state& s) const;
  // log p(w | theta, phi) = sum over tokens t of log sum_k theta[m(t),k] phi[w(t),k]
  // (lda::dot and portable log: the same bits on every machine and on the device).
  double log_likelihood(const state& s) const;
  // Its partial sums over the shard's blocks of likelihood_block documents: ordered_sum of
  // the partials of all shards in shard order is log_likelihood of the whole corpus.
  std::vector<double> log_likelihood_partials(const state& s) const;

  const documents& docs() const { return docs_; }
  const shard& part() const { return part_; }
  const hyperparameters& hyper() const { return h_; }
  const sampler_options& options() const { return how_; }
  std::uint64_t seed() const { return seed_; }
  // Sums the word-topic counts of every process; empty in one process.
  const count_combiner& combiner() const { return combine_; }

  // The shard's CSR helpers, built once from the documents and the shard by the constructor:
  // what the sampler's steps read besides the documents themselves.
  struct shard_index {
    span<const std::int32_t> words;         // the shard's tokens' words (N)
    std::vector<std::int64_t> doc_offsets;  // the shard's doc_offsets, from 0 (M + 1)
    // The shard's token ids (from 0) grouped by word (CSR over words, V + 1 and N): n_wk is
    // counted row by row from it, so each word's counts are owned by one chunk and no
    // per-thread V x K copies are needed. 32 bits a token id: a shard holds fewer than 2^32
    // tokens (the constructor says so), and the ids are the chain's largest array of the corpus.
    std::vector<std::int64_t> word_offsets;
    std::vector<std::uint32_t> word_tokens;
  };
  const shard_index& index() const { return index_; }

 private:
  documents docs_;
  hyperparameters h_;
  std::uint64_t seed_;
  sampler_options how_;
  shard part_;
  count_combiner combine_;
  shard_index index_;
};

}  // namespace butterfly::lda
