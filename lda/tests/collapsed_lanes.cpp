// The collapsed sweep of a document by a subgroup (lda/collapsed_lanes.hpp) against the sweep
// by one thread (lda/collapsed.hpp), side by side: from the same state and tables, each
// document swept by collapsed_long_documents on W host lanes must leave the same topics, the
// same bits, as collapsed_documents leaves, at every width (1 to 64 lanes) and for topic sets
// of one, one full, three and sixteen 64-bit words. The documents run from 1 to 700 tokens of
// 40 words, so that words and documents share many topics and X has many terms, and every third
// document's topics are uniform, where both forms first draw by rejection (proposed).
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "butterfly/host_lanes/subgroup.hpp"
#include "butterfly/lda/steps.hpp"

using namespace butterfly::lda;

namespace {

// A corpus, a state, and collapsed's tables of it (word_buckets and scale_sums, run here on
// host memory as the sampler runs them), with the scratch rows of one slot per document.
struct swept {
  int K;
  double alpha = 0.1, beta = 0.01;
  std::int64_t V = 40;
  std::vector<std::int64_t> offsets{0}, word_offsets, entries, set_places, totals;
  std::vector<std::uint32_t> word_tokens;
  std::vector<std::int32_t> words, z, gathered, topics, counts, doc_counts, picks;
  std::vector<std::uint64_t> heads, set_words, doc_bits;
  std::vector<std::uint16_t> ranks;
  std::vector<double> scale, sums, scale_sum, weights, bounds;
  double largest = 0;

  swept(int topics_in_all, std::uint32_t seed) : K(topics_in_all) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<std::int64_t> length(1, 700);
    std::uniform_int_distribution<std::int32_t> word(0, static_cast<std::int32_t>(V - 1));
    // Topics from a few per document, as a chain that has settled leaves them, and some from
    // all K; every third document's all from K, as the uniform start leaves them (where the
    // sweep draws by rejection first, collapsed_documents::proposed).
    std::uniform_int_distribution<std::int32_t> any(0, K - 1);
    for (int m = 0; m < 24; ++m) {
      const bool uniform = m % 3 == 0;
      std::vector<std::int32_t> own(6);
      for (auto& k : own) k = any(gen);
      std::uniform_int_distribution<std::size_t> pick(0, own.size() - 1);
      const std::int64_t n = length(gen);
      for (std::int64_t t = 0; t < n; ++t) {
        words.push_back(word(gen));
        z.push_back(uniform || gen() % 4 == 0 ? any(gen) : own[pick(gen)]);
      }
      offsets.push_back(static_cast<std::int64_t>(words.size()));
    }
    const std::int64_t N = offsets.back();
    // The tokens grouped by word, in token order; each word's places, min(n_w, K), and its
    // set's room (steps::set_room).
    word_offsets.assign(static_cast<std::size_t>(V + 1), 0);
    for (const std::int32_t w : words) ++word_offsets[static_cast<std::size_t>(w) + 1];
    entries = set_places = word_offsets;
    for (auto& e : entries) e = e < K ? e : K;
    for (std::size_t w = 1; w < set_places.size(); ++w)
      set_places[w] = steps::set_room(K, set_places[w]);
    for (std::size_t w = 1; w < word_offsets.size(); ++w) {
      word_offsets[w] += word_offsets[w - 1];
      entries[w] += entries[w - 1];
      set_places[w] += set_places[w - 1];
    }
    std::vector<std::int64_t> next(word_offsets.begin(), word_offsets.end() - 1);
    word_tokens.resize(static_cast<std::size_t>(N));
    for (std::int64_t t = 0; t < N; ++t)
      word_tokens[static_cast<std::size_t>(next[static_cast<std::size_t>(words[t])]++)] =
          static_cast<std::uint32_t>(t);
    totals.assign(static_cast<std::size_t>(K), 0);
    for (const std::int32_t k : z) ++totals[static_cast<std::size_t>(k)];
    scale.resize(static_cast<std::size_t>(K));
    for (int k = 0; k < K; ++k)
      scale[static_cast<std::size_t>(k)] = 1.0 / (static_cast<double>(totals[k]) + V * beta);
    const std::size_t places = static_cast<std::size_t>(entries.back());
    gathered.resize(static_cast<std::size_t>(N));
    topics.resize(places);
    counts.resize(places);
    sums.resize(places);
    heads.resize(static_cast<std::size_t>(V * steps::word_sets::head_words(K)));
    set_words.resize(static_cast<std::size_t>(set_places.back()));
    ranks.resize(set_words.size());
    steps::word_buckets b{};
    b.token_offsets = word_offsets.data();
    b.tokens = word_tokens.data();
    b.z = z.data();
    b.gathered = gathered.data();
    b.scale = scale.data();
    b.entries = entries.data();
    b.K = K;
    b.sets = sets();
    b.topics = topics.data();
    b.topic_counts = counts.data();
    b.sums = sums.data();
    bounds.resize(static_cast<std::size_t>(V));
    b.bounds = bounds.data();
    b.prior = beta;
    for (std::int64_t w = 0; w < V; ++w) b(w);
    scale_sum.resize(static_cast<std::size_t>(K));
    steps::scale_sums{scale.data(), K, scale_sum.data(), &largest}(0);
    const std::size_t M = offsets.size() - 1;
    doc_counts.resize(M * static_cast<std::size_t>(K));
    picks.resize(doc_counts.size());
    weights.resize(doc_counts.size());
    doc_bits.resize(M * static_cast<std::size_t>(steps::slot_words(K)));
  }

  steps::word_sets sets() {
    return {K, set_places.data(), heads.data(), set_words.data(), ranks.data()};
  }

  // Iteration 3's sweep of every document, writing `topics_out` (the starting z in).
  steps::collapsed_documents documents(std::vector<std::int32_t>& topics_out) {
    steps::collapsed_documents s{};
    s.offsets = offsets.data();
    s.words = words.data();
    s.word_entries = entries.data();
    s.sets = sets();
    s.word_topics = topics.data();
    s.word_counts = counts.data();
    s.word_sums = sums.data();
    s.totals = totals.data();
    s.scale = scale.data();
    s.scale_sum = scale_sum.data();
    s.word_bounds = bounds.data();
    s.largest_scale = &largest;
    s.K = K;
    s.alpha = alpha;
    s.beta = beta;
    s.prior_total = static_cast<double>(V) * beta;
    s.seed = 2026;
    s.first_token = 0;
    s.iteration = 3;
    s.z = topics_out.data();
    s.first_doc = 0;
    s.doc_counts = doc_counts.data();
    s.doc_bits = doc_bits.data();
    s.picks = picks.data();
    s.weights = weights.data();
    return s;
  }
  std::int64_t num_docs() const { return static_cast<std::int64_t>(offsets.size()) - 1; }
};

template <int W>
std::vector<std::int32_t> by_subgroups(swept& st) {
  std::vector<std::int32_t> z = st.z;
  steps::collapsed_long_documents s{st.documents(z)};
  s.documents.lanes_from = 0;  // every document
  for (std::int64_t m = 0; m < st.num_docs(); ++m) s(butterfly::host_lanes::subgroup<W>{}, m);
  return z;
}

}  // namespace

TEST_CASE(
    "lda: a document swept by a subgroup's lanes draws the topics the sweep by one thread draws, "
    "at every width",
    "[lda][collapsed]") {
  for (const int K : {1, 64, 130, 1000, 4200}) {  // 4200: two mask words of a word's set
    swept st(K, static_cast<std::uint32_t>(K));
    std::vector<std::int32_t> want = st.z;
    const steps::collapsed_documents one = st.documents(want);
    for (std::int64_t m = 0; m < st.num_docs(); ++m) one(m);
    INFO("K " << K << ", " << st.offsets.back() << " tokens");
    // The sweep moved tokens (else equal topics would say nothing).
    std::int64_t moved = 0;
    for (std::size_t t = 0; t < want.size(); ++t) moved += want[t] != st.z[t];
    if (K > 1) CHECK(moved > static_cast<std::int64_t>(want.size()) / 10);
    CHECK(by_subgroups<1>(st) == want);
    CHECK(by_subgroups<2>(st) == want);
    CHECK(by_subgroups<8>(st) == want);
    CHECK(by_subgroups<32>(st) == want);
    CHECK(by_subgroups<64>(st) == want);
  }
}

TEST_CASE("lda: the sweep by one thread leaves documents of at least lanes_from tokens alone",
          "[lda][collapsed]") {
  swept st(130, 7);
  std::vector<std::int32_t> z = st.z;
  steps::collapsed_documents one = st.documents(z);
  one.lanes_from = 300;
  for (std::int64_t m = 0; m < st.num_docs(); ++m) one(m);
  std::vector<std::int32_t> all = st.z;
  const steps::collapsed_documents every = st.documents(all);
  for (std::int64_t m = 0; m < st.num_docs(); ++m) every(m);
  int long_ones = 0;
  for (std::int64_t m = 0; m < st.num_docs(); ++m) {
    const std::int64_t b = st.offsets[static_cast<std::size_t>(m)],
                       e = st.offsets[static_cast<std::size_t>(m) + 1];
    const bool is_long = e - b >= 300;
    long_ones += is_long;
    INFO("document " << m << ", " << e - b << " tokens");
    const std::vector<std::int32_t> got(z.begin() + b, z.begin() + e);
    CHECK(got == std::vector<std::int32_t>((is_long ? st.z : all).begin() + b,
                                           (is_long ? st.z : all).begin() + e));
  }
  CHECK(long_ones > 0);
  CHECK(long_ones < st.num_docs());
}
