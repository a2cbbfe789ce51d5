// The count steps' shortcuts against what they stand for, element by element on the host:
// topic_counts' word lists (estimator::mh in one process) are each word's tokens' topics in
// topic order, the lists word_topics makes from the counts (MPI); token_partials gives the
// n_k that column_partials sums from the V x K counts; word_buckets from z (estimator::collapsed
// in one process) makes the entries it makes from the counts (MPI), and phi from them
// (posterior_mean_words) is posterior_mean_entries' phi; word_bucket_moves, after a block of
// tokens has moved, makes word_buckets' tables of the new z. The expected values are computed
// here from z by sorting and counting, not by the steps, and the two builds are held side by side.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "butterfly/lda/steps.hpp"

using namespace butterfly::lda;

namespace {

// Tokens of V words in a shuffled corpus order; word w has lengths[w] tokens.
struct word_tokens {
  std::vector<std::int64_t> offsets{0};
  std::vector<std::uint32_t> tokens;
  std::vector<std::int32_t> z;
};

word_tokens make(const std::vector<std::int64_t>& lengths, int K, std::uint32_t seed) {
  word_tokens c;
  for (const std::int64_t n : lengths) c.offsets.push_back(c.offsets.back() + n);
  const std::int64_t N = c.offsets.back();
  c.tokens.resize(static_cast<std::size_t>(N));
  for (std::int64_t t = 0; t < N; ++t)
    c.tokens[static_cast<std::size_t>(t)] = static_cast<std::uint32_t>(t);
  std::mt19937 gen(seed);
  std::shuffle(c.tokens.begin(), c.tokens.end(), gen);
  std::uniform_int_distribution<std::int32_t> topic(0, K - 1);
  c.z.resize(static_cast<std::size_t>(N));
  for (auto& k : c.z) k = topic(gen);
  return c;
}

// n_wk (V x K) of z, counted here.
std::vector<std::int32_t> dense_counts(const word_tokens& c, std::int64_t V, int K) {
  std::vector<std::int32_t> counts(static_cast<std::size_t>(V * K));
  for (std::int64_t w = 0; w < V; ++w)
    for (std::int64_t i = c.offsets[w]; i < c.offsets[w + 1]; ++i)
      ++counts[static_cast<std::size_t>(w * K + c.z[static_cast<std::size_t>(c.tokens[i])])];
  return counts;
}

// Where each word's stored set words go (word_sets): its room, steps::set_room.
std::vector<std::int64_t> set_places(const std::vector<std::int64_t>& lengths, int K) {
  std::vector<std::int64_t> places{0};
  for (const std::int64_t n : lengths) places.push_back(places.back() + steps::set_room(K, n));
  return places;
}

// word_buckets' outputs for V words of K topics in the given places, every element set to a
// value no step writes.
struct tables {
  tables(const std::vector<std::int64_t>& lengths, int K, std::size_t places, std::size_t tokens)
      : set_offsets(set_places(lengths, K)),
        heads(lengths.size() * static_cast<std::size_t>(steps::word_sets::head_words(K)),
              ~std::uint64_t{0}),
        words(static_cast<std::size_t>(set_offsets.back()), ~std::uint64_t{0}),
        ranks(words.size(), 0xffff),
        topics(places, -1),
        topic_counts(places, -1),
        sums(places, -1.0),
        gathered(tokens, -1),
        lists(tokens, -1) {}
  std::vector<std::int64_t> set_offsets;
  std::vector<std::uint64_t> heads, words;
  std::vector<std::uint16_t> ranks;
  std::vector<std::int32_t> topics, topic_counts;
  std::vector<double> sums;
  std::vector<std::int32_t> gathered, lists;
  steps::word_sets sets(int K) {
    return {K, set_offsets.data(), heads.data(), words.data(), ranks.data()};
  }
  // Word w's stored set words and their ranks.
  std::vector<std::uint64_t> stored(int K, std::int64_t w) {
    const auto at = words.begin() + set_offsets[static_cast<std::size_t>(w)];
    return std::vector<std::uint64_t>(at, at + sets(K).stored_words(w));
  }
  std::vector<std::uint16_t> stored_ranks(int K, std::int64_t w) {
    const auto at = ranks.begin() + set_offsets[static_cast<std::size_t>(w)];
    return std::vector<std::uint16_t>(at, at + sets(K).stored_words(w));
  }
  // word_buckets writing here (without lists, and without the source of its topics).
  steps::word_buckets step(const std::vector<std::int64_t>& entries,
                           const std::vector<double>& scale, int K) {
    steps::word_buckets s{};
    s.scale = scale.data();
    s.entries = entries.data();
    s.K = K;
    s.sets = sets(K);
    s.topics = topics.data();
    s.topic_counts = topic_counts.data();
    s.sums = sums.data();
    s.gathered = gathered.data();
    return s;
  }
};

// Each word's set and entries are its topics of non-zero count, in topic order, with the
// counts and their running sums of n_wk s_k, in its places; each topic's rank in the set is
// its entry's place, and the set's size the word's topics; the mask marks exactly its nonempty
// 64-bit words, and the set stores those alone within the word's room, or all its words where
// the room is the whole set; the word's tokens' topics gathered.
void require_entries(const word_tokens& c, const std::vector<std::int32_t>& counts, int K,
                     const std::vector<std::int64_t>& entries, const std::vector<double>& scale,
                     tables& t) {
  const steps::word_sets sets = t.sets(K);
  for (std::size_t w = 0; w + 1 < entries.size(); ++w) {
    INFO("K = " << K << ", word " << w << " with " << c.offsets[w + 1] - c.offsets[w] << " tokens");
    const auto v = static_cast<std::int64_t>(w);
    std::int64_t e = entries[w];
    double sum = 0.0;
    std::int64_t nonempty = 0;
    for (int j = 0; j < steps::set_words(K); ++j) {
      bool any = false;
      for (int k = 64 * j; k < std::min(K, 64 * j + 64); ++k)
        any = any || counts[w * static_cast<std::size_t>(K) + static_cast<std::size_t>(k)] > 0;
      REQUIRE(sets.of(v).nonempty(j) == any);
      nonempty += any;
    }
    const std::int64_t room = t.set_offsets[w + 1] - t.set_offsets[w];
    REQUIRE(sets.of(v).dense == (room == steps::set_words(K)));
    REQUIRE(sets.stored_words(v) == (sets.of(v).dense ? room : nonempty));
    REQUIRE(nonempty <= room);
    for (int k = 0; k < K; ++k) {
      const std::int32_t n = counts[w * static_cast<std::size_t>(K) + static_cast<std::size_t>(k)];
      REQUIRE(sets.contains(v, k) == (n > 0));
      if (n == 0) continue;
      REQUIRE(sets.rank(v, k) == e - entries[w]);
      sum += n * scale[static_cast<std::size_t>(k)];
      REQUIRE(t.topics[static_cast<std::size_t>(e)] == k);
      REQUIRE(t.topic_counts[static_cast<std::size_t>(e)] == n);
      REQUIRE(std::fabs(t.sums[static_cast<std::size_t>(e)] - sum) <= 1e-12 * sum);
      ++e;
    }
    REQUIRE(e <= entries[w + 1]);
    REQUIRE(sets.size(v) == e - entries[w]);
    REQUIRE(sets.of(v).words == t.words.data() + t.set_offsets[w]);
    for (std::int64_t i = c.offsets[w]; i < c.offsets[w + 1]; ++i)
      REQUIRE(t.gathered[static_cast<std::size_t>(i)] ==
              c.z[static_cast<std::size_t>(c.tokens[static_cast<std::size_t>(i)])]);
  }
}

}  // namespace

TEST_CASE(
    "lda counts: the words' lists made with the counts are their tokens' topics in order, as "
    "word_topics makes them",
    "[lda][counts]") {
  const int K = GENERATE(1, 7, 64);
  // Lengths on both sides of the sorted lists' limit (n^2 <= 4K) and empty words.
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 0; n <= 40; ++n) lengths.push_back(n);
  lengths.push_back(500);
  lengths.push_back(0);
  const word_tokens c = make(lengths, K, 42 + static_cast<std::uint32_t>(K));
  const auto V = static_cast<std::int64_t>(lengths.size());
  std::vector<std::int32_t> counts(static_cast<std::size_t>(V * K), -1), listed(c.z.size(), -1);
  const steps::topic_counts with_lists{c.offsets.data(), c.tokens.data(), c.z.data(), K,
                                       counts.data(),    listed.data()};
  for (std::int64_t w = 0; w < V; ++w) with_lists(w);
  std::vector<std::int32_t> from_rows(c.z.size(), -1);
  const steps::word_topics lists{c.offsets.data(), counts.data(), K, from_rows.data()};
  for (std::int64_t w = 0; w < V; ++w) lists(w);
  for (std::int64_t w = 0; w < V; ++w) {
    INFO("K = " << K << ", word " << w << " with " << lengths[static_cast<std::size_t>(w)]
                << " tokens");
    std::vector<std::int32_t> want;
    for (std::int64_t i = c.offsets[w]; i < c.offsets[w + 1]; ++i)
      want.push_back(c.z[static_cast<std::size_t>(c.tokens[i])]);
    std::sort(want.begin(), want.end());
    const auto b = listed.begin() + c.offsets[w], e = listed.begin() + c.offsets[w + 1];
    REQUIRE(std::vector<std::int32_t>(b, e) == want);
    REQUIRE(std::vector<std::int32_t>(from_rows.begin() + c.offsets[w],
                                      from_rows.begin() + c.offsets[w + 1]) == want);
    for (int k = 0; k < K; ++k)
      REQUIRE(counts[static_cast<std::size_t>(w * K + k)] ==
              std::count(want.begin(), want.end(), k));
  }
}

TEST_CASE("lda counts: n_k from z by token_partials equals the column sums of n_wk",
          "[lda][counts]") {
  const int K = 13;
  std::vector<std::int64_t> lengths;
  for (int w = 0; w < 700; ++w) lengths.push_back((w * 37) % 11);  // 700 words: three word chunks
  const word_tokens c = make(lengths, K, 7);
  const auto V = static_cast<std::int64_t>(lengths.size());
  const auto N = static_cast<std::int64_t>(c.z.size());
  std::vector<std::int32_t> counts(static_cast<std::size_t>(V * K));
  const steps::topic_counts count{c.offsets.data(), c.tokens.data(), c.z.data(), K, counts.data()};
  for (std::int64_t w = 0; w < V; ++w) count(w);
  const std::int64_t chunks = (V + steps::word_chunk - 1) / steps::word_chunk;
  // More chunks than tokens too: the empty ranges count nothing.
  for (const std::int64_t token_chunks : {chunks, N + 5}) {
    std::vector<std::int64_t> by_words(static_cast<std::size_t>(chunks * K), -1),
        by_tokens(static_cast<std::size_t>(token_chunks * K), -1);
    const steps::column_partials<std::int32_t, std::int64_t> columns{counts.data(), V, K,
                                                                     by_words.data()};
    for (std::int64_t i = 0; i < chunks * K; ++i) columns(i);
    const steps::token_partials tokens{c.z.data(), N, token_chunks, K, by_tokens.data()};
    for (std::int64_t i = 0; i < token_chunks; ++i) tokens(i);
    std::vector<double> scale_words(K), scale_tokens(K);
    std::vector<std::int64_t> totals_words(K), totals_tokens(K);
    const steps::mean_scale from_words{by_words.data(),    chunks, K, 0.5, scale_words.data(),
                                       totals_words.data()};
    const steps::mean_scale from_tokens{by_tokens.data(),    token_chunks,        K, 0.5,
                                        scale_tokens.data(), totals_tokens.data()};
    for (int k = 0; k < K; ++k) {
      from_words(k);
      from_tokens(k);
      INFO(token_chunks << " token chunks, topic " << k);
      REQUIRE(totals_tokens[static_cast<std::size_t>(k)] == std::count(c.z.begin(), c.z.end(), k));
      REQUIRE(totals_words[static_cast<std::size_t>(k)] ==
              totals_tokens[static_cast<std::size_t>(k)]);
      REQUIRE(scale_words[static_cast<std::size_t>(k)] ==
              scale_tokens[static_cast<std::size_t>(k)]);
    }
  }
}

TEST_CASE(
    "lda counts: token_partials counting again only the chunks of the tokens that moved (host "
    "and per-token forms) gives a whole count's partials",
    "[lda][counts]") {
  const int K = 9;
  std::vector<std::int64_t> lengths;
  for (int w = 0; w < 300; ++w) lengths.push_back((w * 29) % 13);
  word_tokens c = make(lengths, K, 11);
  const auto N = static_cast<std::int64_t>(c.z.size());
  const std::int64_t chunks = 17;
  const auto whole = [&] {
    std::vector<std::int64_t> p(static_cast<std::size_t>(chunks * K), -1);
    const steps::token_partials all{c.z.data(), N, chunks, K, p.data()};
    for (std::int64_t i = 0; i < chunks; ++i) all(i);
    return p;
  };
  std::vector<std::int64_t> host = whole(), per_token = host;
  std::mt19937 gen(5);
  std::uniform_int_distribution<std::int32_t> topic(0, K - 1);
  const std::int64_t length = (N + chunks - 1) / chunks;
  // A range inside a chunk, one across chunk edges, one from a chunk's first token to another's
  // last, one token, none, the last chunk's tail, all.
  const std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
      {length + 3, length + 9},
      {2 * length - 4, 5 * length + 2},
      {3 * length, 6 * length},
      {N / 2, N / 2 + 1},
      {N / 3, N / 3},
      {N - 5, N},
      {0, N}};
  for (const auto& [first, end] : ranges) {
    INFO("tokens " << first << ".." << end);
    for (std::int64_t t = first; t < end; ++t) c.z[static_cast<std::size_t>(t)] = topic(gen);
    steps::token_partials moved{c.z.data(), N, chunks, K, host.data()};
    moved.chunks_of(first, end);
    REQUIRE(moved.first_chunk <= first / length);
    REQUIRE(moved.end_chunk - moved.first_chunk <= (end - first + 2 * length - 2) / length);
    for (std::int64_t i = 0; i < moved.end_chunk - moved.first_chunk; ++i) moved(i);
    // The device's form as step_runner runs it: the chunks' rows zeroed, then a token each.
    for (std::int64_t i = moved.first_chunk * K; i < moved.end_chunk * K; ++i)
      per_token[static_cast<std::size_t>(i)] = 0;
    steps::token_partial_counts each{c.z.data(), N, chunks, K, per_token.data()};
    each.first_token = moved.first_chunk * moved.length();
    for (std::int64_t t = each.first_token; t < std::min(moved.end_chunk * length, N); ++t)
      each(t - each.first_token);
    REQUIRE(host == whole());
    REQUIRE(per_token == host);
  }
}

TEST_CASE(
    "lda counts: word_buckets from z makes the entries it makes from n_wk, and phi from them is "
    "the counts' phi",
    "[lda][counts]") {
  // One word of topic bits, exactly one, three; 66, two mask words (word_sets).
  const int K = GENERATE(1, 64, 130, 4200);
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 0; n <= 40; ++n) lengths.push_back(n);
  lengths.push_back(900);  // more tokens than topics: every topic, several times
  lengths.push_back(0);
  const word_tokens c = make(lengths, K, 11 + static_cast<std::uint32_t>(K));
  const auto V = static_cast<std::int64_t>(lengths.size());
  const std::vector<std::int32_t> counts = dense_counts(c, V, K);
  std::vector<double> scale(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k) scale[static_cast<std::size_t>(k)] = 1.0 / (3.0 + k);
  std::vector<std::int64_t> entries{0};
  for (const std::int64_t n : lengths)
    entries.push_back(entries.back() + std::min<std::int64_t>(n, K));
  const auto places = static_cast<std::size_t>(entries.back());
  tables dense(lengths, K, places, c.z.size()), from_z(lengths, K, places, c.z.size());
  // The two ways differ in where the topics come from: n_wk's rows, or z's tokens by word.
  steps::word_buckets of_counts = dense.step(entries, scale, K);
  of_counts.counts = counts.data();
  steps::word_buckets of_z = from_z.step(entries, scale, K);
  of_z.token_offsets = c.offsets.data();
  of_z.tokens = c.tokens.data();
  of_z.z = c.z.data();
  for (std::int64_t w = 0; w < V; ++w) {
    of_counts(w);
    of_z(w);
  }
  require_entries(c, counts, K, entries, scale, from_z);
  // Both ways the same bits, the places past a word's entries and stored words untouched alike.
  REQUIRE(from_z.heads == dense.heads);
  REQUIRE(from_z.words == dense.words);
  REQUIRE(from_z.ranks == dense.ranks);
  REQUIRE(from_z.topics == dense.topics);
  REQUIRE(from_z.topic_counts == dense.topic_counts);
  REQUIRE(from_z.sums == dense.sums);
  std::vector<float> phi_counts(static_cast<std::size_t>(V * K), -1.0f), phi_entries(phi_counts);
  const steps::posterior_mean_entries by_entry{counts.data(), scale.data(), K, 0.01,
                                               phi_counts.data()};
  for (std::int64_t i = 0; i < V * K; ++i) by_entry(i);
  const steps::posterior_mean_words by_word{entries.data(),
                                            from_z.sets(K),
                                            from_z.topics.data(),
                                            from_z.topic_counts.data(),
                                            scale.data(),
                                            K,
                                            0.01,
                                            phi_entries.data()};
  for (std::int64_t w = 0; w < V; ++w) by_word(w);
  REQUIRE(phi_entries == phi_counts);
  // The rows of the words from a later one on, as the model files take them a chunk at a time.
  const std::int64_t first = V / 2;
  std::vector<float> later(static_cast<std::size_t>((V - first) * K), -1.0f);
  steps::posterior_mean_words from_first = by_word;
  from_first.entries = entries.data() + first;
  from_first.sets = from_z.sets(K).from(first);
  from_first.out = later.data();
  for (std::int64_t w = 0; w < V - first; ++w) from_first(w);
  REQUIRE(later == std::vector<float>(phi_counts.begin() + first * K, phi_counts.end()));
}

TEST_CASE(
    "lda counts: word_bucket_moves after a block's tokens have moved makes the tables "
    "word_buckets makes from z, with and without the words' lists",
    "[lda][counts]") {
  const int K = GENERATE(1, 64, 130, 4200);
  const bool lists = GENERATE(false, true);
  const int block = GENERATE(0, 1, 2);  // the moved tokens: none, the middle third, all but one
  INFO("K = " << K << (lists ? ", lists" : "") << ", block " << block);
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 0; n <= 40; ++n) lengths.push_back(n);
  lengths.push_back(900);
  lengths.push_back(0);
  word_tokens c = make(lengths, K, 5 + static_cast<std::uint32_t>(K));
  const auto V = static_cast<std::int64_t>(lengths.size());
  const auto N = static_cast<std::int64_t>(c.z.size());
  for (std::int64_t w = 0; w < V; ++w)  // each word's tokens in token order, as lda::chain has them
    std::sort(c.tokens.begin() + c.offsets[w], c.tokens.begin() + c.offsets[w + 1]);
  const std::int64_t first = block == 0 ? N / 2 : block == 1 ? N / 3 : 1;
  const std::int64_t end = block == 0 ? N / 2 : block == 1 ? 2 * N / 3 : N;
  std::vector<std::int64_t> entries{0};
  for (const std::int64_t n : lengths)
    entries.push_back(entries.back() + std::min<std::int64_t>(n, K));
  const auto places = static_cast<std::size_t>(entries.back());
  std::vector<double> before(static_cast<std::size_t>(K)), after(before);
  for (int k = 0; k < K; ++k) {
    before[static_cast<std::size_t>(k)] = 1.0 / (3.0 + k);
    after[static_cast<std::size_t>(k)] = 1.0 / (2.0 + 1.5 * k);
  }
  const auto from_z = [&](tables& t, const std::vector<double>& scale) {
    steps::word_buckets s = t.step(entries, scale, K);
    s.token_offsets = c.offsets.data();
    s.tokens = c.tokens.data();
    s.z = c.z.data();
    s.list_offsets = c.offsets.data();
    s.lists = lists ? t.lists.data() : nullptr;
    return s;
  };
  tables moved(lengths, K, places, c.z.size()), fresh(lengths, K, places, c.z.size());
  const steps::word_buckets made = from_z(moved, before);
  for (std::int64_t w = 0; w < V; ++w) made(w);
  // The block's tokens move to a topic drawn at random with probability 3/4: the short words
  // lose topics and gain others in one step, more than their places hold at once. Then the
  // tokens after the block, as the next block of a sweep moves them (the moves start from the
  // cursors the first left), then those before it, as the next sweep's first block.
  std::mt19937 gen(3);
  std::uniform_int_distribution<std::int32_t> topic(0, K - 1);
  std::bernoulli_distribution moves(0.75);
  std::vector<std::int64_t> cursors(static_cast<std::size_t>(V), -1);
  for (int pass = 0; pass < 3; ++pass) {
    const std::int64_t from = pass == 0 ? first : pass == 1 ? end : 0;
    const std::int64_t to = pass == 0 ? end : pass == 1 ? N : first;
    INFO("tokens " << from << ".." << to);
    for (std::int64_t t = from; t < to; ++t)
      if (moves(gen)) c.z[static_cast<std::size_t>(t)] = topic(gen);
    steps::word_bucket_moves update{from_z(moved, after), from, to};
    update.cursors = cursors.data();
    update.resume = pass == 1;
    const steps::word_buckets remade = from_z(fresh, after);
    for (std::int64_t w = 0; w < V; ++w) {
      update(w);
      remade(w);
    }
    require_entries(c, dense_counts(c, V, K), K, entries, after, moved);
    REQUIRE(moved.heads == fresh.heads);
    for (std::int64_t w = 0; w < V; ++w) {
      INFO("word " << w);
      const auto at = static_cast<std::size_t>(entries[w]);
      const auto to_place = at + static_cast<std::size_t>(fresh.sets(K).size(w));
      const auto part = [&](const auto& v) {
        return std::vector(v.begin() + at, v.begin() + to_place);
      };
      REQUIRE(part(moved.topics) == part(fresh.topics));
      REQUIRE(part(moved.topic_counts) == part(fresh.topic_counts));
      REQUIRE(part(moved.sums) == part(fresh.sums));  // the same bits
      REQUIRE(moved.stored(K, w) == fresh.stored(K, w));
      REQUIRE(moved.stored_ranks(K, w) == fresh.stored_ranks(K, w));
      // The cursor: the word's first token at or after the range's end.
      const auto tokens_of = c.tokens.begin() + c.offsets[w];
      REQUIRE(cursors[static_cast<std::size_t>(w)] ==
              c.offsets[w] + (std::lower_bound(tokens_of, c.tokens.begin() + c.offsets[w + 1],
                                               static_cast<std::uint32_t>(to)) -
                              tokens_of));
    }
    REQUIRE(moved.gathered == fresh.gathered);
    REQUIRE(moved.lists == fresh.lists);
  }
}
