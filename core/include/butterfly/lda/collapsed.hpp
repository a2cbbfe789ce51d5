// The two steps of estimator::collapsed (chain.hpp), the partially collapsed Gibbs sampler
// (Magnusson, Jonsson, Villani, Broman 2015, with phi at its posterior mean): theta is
// integrated out, so each document's tokens are drawn in order with the document's counts
// updated after every token; the word-topic counts are those of the previous iteration, held
// fixed for the whole sweep, which makes every document independent of every other (one
// element each, any thread, rank or device, the same bits).
//
// Token t (document m, word w, previous topic o) draws topic k with weight
//   p_k = (n_mk + alpha) (n_wk + beta) / (n_k + V beta)
// where n_mk counts the document's other tokens as drawn so far in this sweep and n_wk, n_k
// the previous iteration's topics of every other token: for k = o the token's own count is
// taken out of n_wo and n_o. (Phi at its posterior mean without the token: leaving it in
// would favour o by (1 + beta) / beta for a word seen once, and such a token never moves.)
// The weight splits as SparseLDA's does (Yao, Mimno, McCallum 2009), into
//   q:      sum over the document's topics (n_mk > 0) of n_mk (n_wk + beta) / (n_k + V beta)
//           O(K_d) per token, K_d <= the document's length;
//   smooth: alpha times the same for all K topics, drawn in O(log K) from word_cdf, the
//           word's running sums built once per iteration from the fixed counts (so exact,
//           not stale); topic o's term in it is replaced by o's own-count-free term.
// Per token no term grows with K but the O(log K) search; per iteration the counts and the
// table are O(V K), and the word's rows a token reads are longer at larger K, which is what
// the sweep waits on (bench/RESULTS.md, issue 23). The draw's bits are fixed by the order
// of the operations below, which every backend runs as written (no contraction).
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/rng.hpp"

namespace butterfly::lda::steps {

// Topics per block of word_cdf's running sum: the sum within a block and the sum of the
// blocks before it are separate chains, which is part of the definition of the table's bits
// (and lets a CPU run the blocks' chains side by side).
inline constexpr int cdf_block = 16;

// Element w: row w of cdf (V x K), cdf[w,k] = the sum over j <= k of (n_wj + beta) scale[j],
// rounded to float: the blocks of cdf_block topics summed in order within each block, each
// added to the sum of the blocks before it.
struct word_cdf {
  const std::int32_t* counts;  // n_wk, V x K
  const double* scale;         // 1 / (n_k + V beta), K
  int K;
  double beta;
  float* cdf;
  static constexpr std::int64_t grain = 16;
  BUTTERFLY_FN void operator()(std::int64_t w) const {
    const std::int32_t* n = counts + w * K;
    float* c = cdf + w * K;
    double before = 0.0;
    for (int b = 0; b < K; b += cdf_block) {
      const int e = b + cdf_block < K ? b + cdf_block : K;
      double within = 0.0;
      for (int k = b; k < e; ++k) {
        within += (static_cast<double>(n[k]) + beta) * scale[k];
        c[k] = static_cast<float>(before + within);
      }
      before += within;
    }
  }
};

// Asks the host's cache for what the next token will read while this one draws (its word's
// rows are scattered over V x K arrays); nothing on a device.
BUTTERFLY_FN void prefetch(const void* p) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

// Element m: one sweep over document m's tokens in order (see the top of the file).
// doc_counts row m holds the counts of document m's topics in z before and after; during the
// sweep the document keeps its topics with a non-zero count as a list in its slots of
// `topics` and `counts` (one slot per token), and row m says where each is on it:
// -(position + 1), or 0 for a topic with no tokens. `weights` (one slot per token) holds the
// running sums of a token's weights over the list, so the search reads them back in order.
struct collapsed_documents {
  const std::int64_t* offsets;      // the shard's, from 0
  const std::int32_t* words;        // the shard's
  const std::int32_t* word_counts;  // n_wk of the previous iteration, V x K
  const std::int64_t* totals;       // n_k of the previous iteration, K
  const double* scale;              // 1 / (n_k + V beta), K
  const float* cdf;                 // word_cdf of the same counts, V x K
  int K;
  double alpha, beta, prior_total;  // prior_total = V beta
  std::uint64_t seed, first_token;
  std::uint32_t iteration;
  std::int32_t* z;           // the previous iteration's topics in, this iteration's out
  std::int32_t* doc_counts;  // n_mk, M x K
  std::int32_t* topics;      // one slot per token
  std::int32_t* counts;      // one slot per token
  double* weights;           // one slot per token
  static constexpr std::int64_t grain = 4;

  BUTTERFLY_FN void operator()(std::int64_t m) const {
    // Locals: the stores below could alias the members, which would reload them every time.
    const int K = this->K;
    const double alpha = this->alpha, beta = this->beta, prior_total = this->prior_total;
    const std::int32_t* const word_counts = this->word_counts;
    const std::int64_t* const totals = this->totals;
    const double* const scale = this->scale;
    const float* const cdf = this->cdf;
    std::int32_t* const z = this->z;
    const std::int64_t begin = offsets[m], end = offsets[m + 1];
    std::int32_t* where = doc_counts + m * K;
    std::int32_t* list = topics + begin;
    std::int32_t* n = counts + begin;
    double* sum = weights + begin;
    int size = 0;
    // The list, in order of first appearance.
    for (std::int64_t t = begin; t < end; ++t) {
      const int k = z[t];
      if (where[k] > 0) {
        list[size] = k;
        n[size] = where[k];
        where[k] = -++size;
      }
    }
    for (std::int64_t t = begin; t < end; ++t) {
      const int o = z[t];
      const std::int64_t row = static_cast<std::int64_t>(words[t]) * K;
      const std::int32_t* nw = word_counts + row;
      const float* c = cdf + row;
      // The next token's word: its counts of this document's topics, o's and the table's ends.
      const std::int64_t next = (t + 1 < end ? static_cast<std::int64_t>(words[t + 1]) : 0) * K;
      const std::int32_t* nw_next = word_counts + next;
      prefetch(nw_next + z[t + 1 < end ? t + 1 : t]);
      prefetch(cdf + next + K - 1);
      const int at = -where[o] - 1;
      if (--n[at] == 0) {  // o leaves the list; the last topic takes its place
        list[at] = list[--size];
        n[at] = n[size];
        where[list[at]] = -(at + 1);
        where[o] = 0;
      }
      // o's weight per document token, without the token's own count in n_wo and n_o.
      const double phi_o = (static_cast<double>(nw[o] - 1) + beta) / (static_cast<double>(totals[o] - 1) + prior_total);
      double q = 0.0;
      for (int i = 0; i < size; ++i) {
        const int k = list[i];
        prefetch(nw_next + k);
        const double phi = k == o ? phi_o : (static_cast<double>(nw[k]) + beta) * scale[k];
        sum[i] = q += static_cast<double>(n[i]) * phi;
      }
      // The smoothing bucket: o's term without its own count, the other topics' from the table.
      const double below_o = o > 0 ? static_cast<double>(c[o - 1]) : 0.0;
      const double table_o = static_cast<double>(c[o]) - below_o;
      const double smooth_o = alpha * phi_o;
      const double smooth_rest = alpha * (static_cast<double>(c[K - 1]) - table_o);
      const auto r = rng::bits(seed, iteration, rng::stream::z, first_token + static_cast<std::uint64_t>(t));
      double u = (q + smooth_o + smooth_rest) * rng::u01(r[0], r[1]);
      int k = o;
      if (u < q) {
        int i = 0;
        while (i < size - 1 && !(u < sum[i])) ++i;
        k = list[i];
      } else if ((u -= q) >= smooth_o) {
        // The table without o: skip o's interval, then the first topic whose sum exceeds v.
        double v = (u - smooth_o) / alpha;
        if (v >= below_o) v += table_o;
        int lo = 0, hi = K - 1;
        while (lo < hi) {
          const int mid = (lo + hi) / 2;
          if (static_cast<double>(c[mid]) > v) hi = mid;
          else lo = mid + 1;
        }
        // Rounding can land the skip on o itself; its neighbour takes the (measure-zero) case.
        k = lo != o ? lo : (o + 1 < K ? o + 1 : (o > 0 ? o - 1 : o));
      }
      z[t] = k;
      if (where[k] < 0) {
        ++n[-where[k] - 1];
      } else {
        list[size] = k;
        n[size] = 1;
        where[k] = -++size;
      }
    }
    // Row m holds the counts again.
    for (int i = 0; i < size; ++i) where[list[i]] = n[i];
  }
};

}  // namespace butterfly::lda::steps
