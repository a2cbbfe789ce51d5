#include "butterfly/lda/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/lda/gamma.hpp"
#include "butterfly/lda/steps.hpp"
#include "butterfly/lda/streams.hpp"

namespace butterfly::lda {
namespace {

constexpr std::int64_t doc_chunk = 16;  // infer_theta: rows are independent

void append(document_set& d, const documents& all, std::int64_t m) {
  d.words.insert(d.words.end(), all.words.begin() + all.doc_offsets[m],
                 all.words.begin() + all.doc_offsets[m + 1]);
  d.doc_offsets.push_back(static_cast<std::int64_t>(d.words.size()));
}

}  // namespace

holdout_split split_holdout(const documents& all, double fraction, std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction < 1.0))
    throw std::invalid_argument("holdout fraction must be in [0, 1), got " +
                                std::to_string(fraction));
  const std::int64_t M = all.num_docs();
  const auto held = static_cast<std::int64_t>(std::llround(fraction * static_cast<double>(M)));
  std::vector<std::uint64_t> key(static_cast<std::size_t>(M));
  for (std::int64_t m = 0; m < M; ++m) {
    const auto r = rng::bits(seed, 0, lda::streams::holdout, static_cast<std::uint64_t>(m));
    key[m] = (static_cast<std::uint64_t>(r[0]) << 32) | r[1];
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(M));
  std::iota(order.begin(), order.end(), 0);
  // Ties (equal 64-bit keys) are broken by document id so the choice is fully determined.
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return key[a] != key[b] ? key[a] < key[b] : a < b;
  });
  std::vector<char> is_test(static_cast<std::size_t>(M), 0);
  for (std::int64_t i = 0; i < held; ++i) is_test[order[i]] = 1;

  holdout_split s;
  s.train.vocab_size = s.test.vocab_size = all.vocab_size;
  for (std::int64_t m = 0; m < M; ++m) {
    if (is_test[m]) {
      append(s.test, all, m);
      s.test_ids.push_back(m);
    } else {
      append(s.train, all, m);
    }
  }
  return s;
}

void estimate_theta(const std::int32_t* words, std::int64_t length, const float* phi,
                    const hyperparameters& h, const fold_in_options& o, std::uint64_t doc_key,
                    float* theta_out) {
  const int K = h.num_topics;
  std::vector<float> theta(static_cast<std::size_t>(K), 1.0f / static_cast<float>(K));
  std::vector<double> cumulative(static_cast<std::size_t>(K)), scratch(static_cast<std::size_t>(K)),
      mean(static_cast<std::size_t>(K), 0.0);
  std::vector<std::int32_t> n(static_cast<std::size_t>(K));
  // Index space of stream fold_in: bit 31 set for the theta draw of topic k, clear for the
  // z draw of token j, document key in the upper 32 bits.
  const std::uint64_t base = doc_key << 32;
  const int first_kept = o.sweeps / 2;
  for (int sweep = 0; sweep < o.sweeps; ++sweep) {
    const auto iteration = static_cast<std::uint32_t>(sweep);
    std::fill(n.begin(), n.end(), 0);
    for (std::int64_t j = 0; j < length; ++j) {
      const float* p = phi + static_cast<std::int64_t>(words[j]) * K;
      double sum = 0.0;
      for (int k = 0; k < K; ++k) cumulative[k] = sum += double(theta[k]) * double(p[k]);
      const auto r = rng::bits(o.seed, iteration, lda::streams::fold_in, base | std::uint64_t(j));
      const double target = rng::u01(r[0], r[1]) * sum;
      // Floored theta and phi make every product positive, so the draw is always some k.
      const int k = static_cast<int>(
          std::upper_bound(cumulative.begin(), cumulative.end(), target) - cumulative.begin());
      ++n[std::min(k, K - 1)];
    }
    if (sweep >= first_kept) {
      const double denom = static_cast<double>(length) + K * h.alpha;
      for (int k = 0; k < K; ++k) mean[k] += (h.alpha + n[k]) / denom;
    }
    dirichlet_row(h.alpha, n.data(), K, rng_key{o.seed, iteration, lda::streams::fold_in},
                  base | (std::uint64_t{1} << 31), scratch.data(), theta.data());
  }
  const int kept = o.sweeps - first_kept;
  for (int k = 0; k < K; ++k) theta_out[k] = static_cast<float>(mean[k] / kept);
}

std::vector<float> infer_theta(const documents& docs, const std::vector<float>& phi,
                               const hyperparameters& h, const fold_in_options& o) {
  const int K = h.num_topics;
  std::vector<float> theta(static_cast<std::size_t>(docs.num_docs() * K));
  detail::host_parallel_for(docs.num_docs(), doc_chunk, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t m = b; m < e; ++m) {
      const std::int64_t begin = docs.doc_offsets[m];
      estimate_theta(docs.words.data() + begin, docs.doc_offsets[m + 1] - begin, phi.data(), h, o,
                     static_cast<std::uint64_t>(m), &theta[static_cast<std::size_t>(m * K)]);
    }
  });
  return theta;
}

perplexity_partials completion_partials(const documents& test, std::int64_t first_block,
                                        std::int64_t end_block, const std::vector<float>& phi,
                                        const hyperparameters& h, const fold_in_options& o) {
  const int K = h.num_topics;
  const std::int64_t M = test.num_docs();
  const std::int64_t first_doc = first_block * completion_block;
  const std::int64_t end_doc = std::min(end_block * completion_block, M);
  if (first_block < 0 || first_block > end_block || (end_block > first_block && first_doc >= M))
    throw std::invalid_argument("perplexity blocks [" + std::to_string(first_block) + ", " +
                                std::to_string(end_block) + ") outside the test set");
  perplexity_partials p;
  p.log_likelihood.assign(static_cast<std::size_t>(end_block - first_block), 0.0);
  p.scored_tokens.assign(static_cast<std::size_t>(end_block - first_block), 0);
  detail::host_parallel_for(
      end_doc - first_doc, completion_block, [&](std::int64_t b, std::int64_t e) {
        std::vector<std::int32_t> observed;
        std::vector<float> theta(static_cast<std::size_t>(K));
        double ll = 0.0;
        std::int64_t scored = 0;
        for (std::int64_t m = first_doc + b; m < first_doc + e; ++m) {
          const std::int64_t begin = test.doc_offsets[m], end = test.doc_offsets[m + 1];
          if (end - begin < 2) continue;  // nothing to observe or nothing to score
          observed.clear();
          for (std::int64_t t = begin; t < end; t += 2) observed.push_back(test.words[t]);
          estimate_theta(observed.data(), static_cast<std::int64_t>(observed.size()), phi.data(), h,
                         o, static_cast<std::uint64_t>(m), theta.data());
          for (std::int64_t t = begin + 1; t < end; t += 2) {
            ll += portable::log(
                dot(theta.data(), &phi[static_cast<std::size_t>(test.words[t]) * K], K));
            ++scored;
          }
        }
        p.log_likelihood[static_cast<std::size_t>(b / completion_block)] = ll;
        p.scored_tokens[static_cast<std::size_t>(b / completion_block)] = scored;
      });
  return p;
}

perplexity_result combine(const perplexity_partials& p) {
  perplexity_result r;
  r.log_likelihood = ordered_sum(p.log_likelihood);
  for (std::int64_t n : p.scored_tokens) r.scored_tokens += n;
  r.perplexity = r.scored_tokens > 0 ? std::exp(-r.log_likelihood / r.scored_tokens) : 0.0;
  return r;
}

perplexity_result completion_perplexity(const documents& test, const std::vector<float>& phi,
                                        const hyperparameters& h, const fold_in_options& o) {
  const std::int64_t blocks = (test.num_docs() + completion_block - 1) / completion_block;
  return combine(completion_partials(test, 0, blocks, phi, h, o));
}

}  // namespace butterfly::lda
