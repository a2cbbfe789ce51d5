#include "butterfly/lda/topic_counts.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "butterfly/detail/subgroup.hpp"
#include "butterfly/lda/posterior_mean.hpp"
#include "tokens_by_word.hpp"

namespace butterfly::lda {
namespace {

[[noreturn]] void invalid(const std::string& what) {
  throw std::invalid_argument("lda::topic_counts: " + what);
}

// A document's token numbers [first, last).
struct token_range {
  std::size_t first, last;
  struct iterator {
    std::size_t t;
    std::size_t operator*() const { return t; }
    iterator& operator++() { return ++t, *this; }
    bool operator!=(iterator o) const { return t != o.t; }
  };
  iterator begin() const { return {first}; }
  iterator end() const { return {last}; }
};

}  // namespace

topic_counts::topic_counts(const documents& docs, state topics, int num_topics,
                           const chain::shard_index* by_word)
    : docs_(docs),
      topics_(std::move(topics)),
      z_(topics_.z.data(), topics_.z.size()),
      kept_(topics_.kept.data(), topics_.kept.size()),
      K_(num_topics),
      by_word_(by_word) {
  check_and_total();
}

topic_counts::topic_counts(const documents& docs, span<const std::int32_t> z,
                           span<const std::uint16_t> kept, int num_topics,
                           const chain::shard_index* by_word)
    : docs_(docs), z_(z), kept_(kept), K_(num_topics), by_word_(by_word) {
  check_and_total();
}

void topic_counts::check_and_total() {
  const documents& docs = docs_;
  const span<const std::int32_t> z = z_;
  const span<const std::uint16_t> kept = kept_;
  const auto N = static_cast<std::size_t>(docs.num_tokens());
  if (K_ < 1) invalid("num_topics " + std::to_string(K_) + " < 1");
  if (z.size() != N)
    invalid("z has " + std::to_string(z.size()) + " topics for " + std::to_string(N) + " tokens");
  if (N == 0 ? !kept.empty() : kept.size() % N != 0)
    invalid("kept has " + std::to_string(kept.size()) + " topics, not a multiple of the " +
            std::to_string(N) + " tokens");
  if (N > std::numeric_limits<std::uint32_t>::max())
    invalid("more than 2^32 - 1 tokens (" + std::to_string(N) + ")");
  if (by_word_ && (by_word_->word_tokens.size() != N ||
                  by_word_->word_offsets.size() != static_cast<std::size_t>(docs.vocab_size) + 1))
    invalid("by_word groups " + std::to_string(by_word_->word_tokens.size()) + " tokens of " +
            std::to_string(by_word_->word_offsets.size()) + " - 1 words, not the documents' " +
            std::to_string(N) + " of " + std::to_string(docs.vocab_size));
  sweeps_ = 1 + static_cast<int>(N == 0 ? 0 : kept.size() / N);
  totals_.assign(static_cast<std::size_t>(K_), 0);
  for (const std::int32_t k : z) {
    if (k < 0 || k >= K_)
      invalid("z holds topic " + std::to_string(k) + ", outside [0, " + std::to_string(K_) + ")");
    ++totals_[static_cast<std::size_t>(k)];
  }
  for (const std::uint16_t k : kept) {
    if (k >= K_)
      invalid("kept holds topic " + std::to_string(k) + ", outside [0, " + std::to_string(K_) +
              ")");
    ++totals_[k];
  }
  if (!by_word_) {
    word_offsets_ = word_offsets(docs.words, docs.vocab_size);
    word_tokens_ = tokens_by_word(docs.words, word_offsets_);
  }
  for (scratch* s : {&documents_, &words_}) {
    s->counts.assign(static_cast<std::size_t>(K_), 0);
    s->topics.assign((static_cast<std::size_t>(K_) + 63) / 64, 0);
  }
}

// The counts of the tokens `tokens` gives (token numbers) in every sweep, with the scratch
// of one kind of row.
template <class Tokens>
void topic_counts::row(Tokens tokens, scratch& s, std::vector<io::topic_count>& out) const {
  const span<const std::int32_t> z = z_;
  const span<const std::uint16_t> kept = kept_;
  const std::size_t N = z.size();
  const auto add = [&](std::int32_t k) {
    if (s.counts[static_cast<std::size_t>(k)]++ == 0)
      s.topics[static_cast<std::size_t>(k) / 64] |= std::uint64_t{1} << (k % 64);
  };
  for (const auto t : tokens) {
    add(z[t]);
    for (std::size_t at = t; at < kept.size(); at += N) add(kept[at]);  // sweep j at j N
  }
  // MALLET's order, count down then topic up, without a comparison sort of a wide row (a
  // long document's at a uniform start holds a thousand topics): the topics up from the set
  // of them (K / 64 words), then a stable counting sort by count where the counts are small
  // beside the row (most rows), else a stable sort.
  s.up.clear();
  std::int64_t most = 0;
  for (std::size_t i = 0; i < s.topics.size(); ++i)
    for (std::uint64_t bits = std::exchange(s.topics[i], 0); bits != 0; bits &= bits - 1) {
      const auto k = static_cast<std::int32_t>(i * 64) + detail::lowest_set_bit(bits);
      const std::int64_t n = std::exchange(s.counts[static_cast<std::size_t>(k)], 0);
      s.up.push_back({k, n});
      most = std::max(most, n);
    }
  out.resize(s.up.size());
  if (most <= 4 * static_cast<std::int64_t>(s.up.size()) + 64) {
    s.starts.assign(static_cast<std::size_t>(most) + 1, 0);  // by most - count
    for (const io::topic_count& e : s.up) ++s.starts[static_cast<std::size_t>(most - e.count)];
    std::int64_t at = 0;
    for (std::int64_t& start : s.starts) at += std::exchange(start, at);
    for (const io::topic_count& e : s.up)
      out[static_cast<std::size_t>(s.starts[static_cast<std::size_t>(most - e.count)]++)] = e;
  } else {
    std::copy(s.up.begin(), s.up.end(), out.begin());
    std::stable_sort(
        out.begin(), out.end(),
        [](const io::topic_count& a, const io::topic_count& b) { return a.count > b.count; });
  }
}

void topic_counts::document_row(std::int64_t m, std::vector<io::topic_count>& out) {
  if (m < 0 || m >= docs_.num_docs())
    invalid("document " + std::to_string(m) + " outside [0, " + std::to_string(docs_.num_docs()) +
            ")");
  const auto at = static_cast<std::size_t>(m);
  row(token_range{static_cast<std::size_t>(docs_.doc_offsets[at]),
                  static_cast<std::size_t>(docs_.doc_offsets[at + 1])},
      documents_, out);
}

void topic_counts::word_row(std::int64_t w, std::vector<io::topic_count>& out) {
  if (w < 0 || w >= docs_.vocab_size)
    invalid("word " + std::to_string(w) + " outside [0, " + std::to_string(docs_.vocab_size) + ")");
  const auto at = static_cast<std::size_t>(w);
  const std::vector<std::int64_t>& offsets = by_word_ ? by_word_->word_offsets : word_offsets_;
  const std::vector<std::uint32_t>& tokens = by_word_ ? by_word_->word_tokens : word_tokens_;
  row(span<const std::uint32_t>(tokens.data() + offsets[at],
                                static_cast<std::size_t>(offsets[at + 1] - offsets[at])),
      words_, out);
}

phi_entries::phi_entries(const std::vector<std::int64_t>& totals, std::int64_t V, double beta,
                         int sweeps)
    : prior(beta * sweeps), scale(totals.size()), zero(totals.size()) {
  for (std::size_t k = 0; k < totals.size(); ++k) {
    scale[k] = posterior_mean_scale(totals[k], static_cast<int>(V), prior);
    zero[k] = posterior_mean_entry(0.0, prior, scale[k]);
  }
}

float phi_entries::operator()(std::size_t k, std::int64_t n) const {
  return posterior_mean_entry(static_cast<double>(n), prior, scale[k]);
}

std::vector<float> phi_of_counts(const io::topic_count_rows& words, int num_topics, double beta,
                                 int sweeps) {
  const auto K = static_cast<std::size_t>(num_topics);
  std::vector<std::int64_t> totals(K, 0);
  for (const io::topic_count& e : words.entries)
    totals[static_cast<std::size_t>(e.topic)] += e.count;
  const phi_entries entry(totals, words.rows(), beta, sweeps);
  std::vector<float> phi(static_cast<std::size_t>(words.rows()) * K);
  for (std::int64_t w = 0; w < words.rows(); ++w) {
    float* row = phi.data() + static_cast<std::size_t>(w) * K;
    std::copy(entry.zero.begin(), entry.zero.end(), row);
    for (auto i = words.offsets[static_cast<std::size_t>(w)];
         i < words.offsets[static_cast<std::size_t>(w) + 1]; ++i) {
      const io::topic_count& e = words.entries[static_cast<std::size_t>(i)];
      row[static_cast<std::size_t>(e.topic)] = entry(static_cast<std::size_t>(e.topic), e.count);
    }
  }
  return phi;
}

}  // namespace butterfly::lda
