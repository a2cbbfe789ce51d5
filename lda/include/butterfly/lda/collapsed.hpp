// The steps of estimator::collapsed (chain.hpp), the partially collapsed Gibbs sampler
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
// With s_k = 1 / (n_k + V beta), the weight of every k != o splits as SparseLDA's does (Yao,
// Mimno, McCallum 2009) into four buckets, o's exact weight a fifth:
//   X: n_mk n_wk s_k   topics of both the document and the word: the AND of the two topic
//                      sets (bit sets of K bits; the word's stored compactly, word_sets.hpp)
//                      over the 64-bit words where both have topics, each topic's entry found
//                      by the word's ranks, O(K / 64 + |X|) per token at most;
//   R: beta n_mk s_k   the document's topics: its sum kept as the document's counts change;
//   A: alpha n_wk s_k  the word's topics: running sums built once per iteration (word_buckets);
//   S: alpha beta s_k  every topic: running sums of s built once per iteration (scale_sums);
//   O: (n_mo + alpha) (n_wo - 1 + beta) / (n_o - 1 + V beta).
// The fixed word counts make A's and S's tables exact for the whole sweep, not stale. Before
// the buckets, a token of a document of many topics is drawn by rejection where that is
// expected to cost less than X (proposed, below). Only X is summed per token; a draw that falls in
// R, A or S (their weights carry beta or alpha) searches the document's topics or a table.
// Departure from SparseLDA: its q bucket sums over the word's topics (about 290 per token on 20news
// at K = 1000, stop words included) and its r bucket over the document's (about 70 there; summing
// it per token, reading a V x K row per topic, was this sweep's bottleneck); the AND of the bit
// sets finds X's few topics without either, reading the word's compact entries and no V x K array.
// The draw's bits are fixed by the order of the operations below, which every backend runs as
// written (no contraction).
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/detail/subgroup.hpp"
#include "butterfly/lda/word_sets.hpp"

namespace butterfly::lda::steps {

// 64-bit words per document slot of the sweep: the document's topic set, then the set of its
// nonempty words (bit j: a topic in 64 j .. 64 j + 63), as word_sets' mask is of a word's.
BUTTERFLY_FN int slot_words(int K) { return set_words(K) + mask_words(K); }

// The topics both a document and a word have, in topic order, but `except` (a topic, or -1 for
// none): acc = f(acc, k, p) for each, p its place among word_buckets' entries (from `at`, the
// word's first); returns acc. The document is a slot's set and its nonempty words (`used`); only
// the set words where both have topics are read (the word's mask marks its nonempty ones; where
// every set is dense, an empty set word reads as zero, so no mask is read), each topic's entry by
// its stored word's rank. The sweep's X (collapsed_documents) and the log-likelihood's sparse dot
// (likelihood_steps.hpp) add over these topics in this order. The accumulator goes by value, so
// that it stays in registers while f stores through pointers: a captured reference could alias
// those stores and be reloaded after each (the sweep's x and c through a by-reference lambda took
// 1.03-1.07x the sweep's seconds, bench/journal/2026-12-04.md).
template <class Acc, class F>
BUTTERFLY_FN Acc fold_topics_of_both(const word_sets& ws, const stored_set& word_set,
                                     const std::uint64_t* set, const std::uint64_t* used,
                                     std::int64_t at, int except, Acc acc, F&& f) {
  // Locals, for the same reason: a store of f's through a pointer could alias ws's K and the
  // set's fields, which would then be reloaded for every set word.
  const int M = ws.mask_words();
  const bool all_dense = ws.all_dense();
  const std::uint64_t* const word_mask = word_set.mask;
  const std::uint64_t* const word_words = word_set.words;
  const std::uint16_t* const word_ranks = word_set.ranks;
  const int except_word = except < 0 ? -1 : except / 64;
  for (int q = 0; q < M; ++q) {
    const std::uint64_t mask = all_dense ? ~std::uint64_t{0} : word_mask[q];
    for (std::uint64_t words_left = used[q] & mask; words_left != 0; words_left &= words_left - 1) {
      const int j = 64 * q + detail::lowest_set_bit(words_left);
      const int stored = word_set.place(j);
      const std::uint64_t word_bits = word_words[stored];
      std::uint64_t b = set[j] & word_bits;
      if (j == except_word) b &= ~(std::uint64_t{1} << (except % 64));
      const std::int64_t place = at + word_ranks[stored];
      for (; b != 0; b &= b - 1) {
        const int bit = detail::lowest_set_bit(b);
        acc = f(acc, 64 * j + bit, place + set_bits(word_bits & below(bit)));
      }
    }
  }
  return acc;
}

// Element w: word w's topic set (word_sets) and its entries, one per topic with a non-zero
// count, in topic order from entries[w]: the topic, its count n_wk and the running sum of
// n_wk s_k. The word's entries need at most min(n_w, K) places, which entries gives.
// The counts come from the dense V x K n_wk where a count combiner made them (MPI), and
// otherwise from the topics of the word's tokens themselves (tokens grouped by word), so that
// one process holds no V x K counts at all: the same entries either way.
struct word_buckets {
  const std::int32_t* counts;         // n_wk, V x K; null: counted from z
  const std::int64_t* token_offsets;  // with counts null: the tokens of each word, V + 1,
  const std::uint32_t* tokens;        // as lda::chain groups them,
  const std::int32_t* z;
  std::int32_t* gathered;       // and room for their topics in that order
  const double* scale;          // s_k = 1 / (n_k + V beta), K
  const std::int64_t* entries;  // V + 1: where each word's entries go
  int K;
  word_sets sets;
  std::int32_t* topics;
  std::int32_t* topic_counts;
  double* sums;
  // Null, or V: each word's largest weight (n_wk + beta) s_k over its topics, the bound
  // collapsed_documents::proposed draws under (beta is `prior`).
  double* bounds;
  double prior;
  // Null, or where each word's list goes (V + 1) and room for the lists: the word's tokens'
  // topics in topic order, n_wk copies of k (hybrid's compact_word, metropolis.hpp).
  const std::int64_t* list_offsets;
  std::int32_t* lists;
  static constexpr std::int64_t grain = 16;
  // The set's mask, from the row of counts or from the tokens' topics (gathered once into
  // `gathered`, in the word's token order), then its stored words from them again (a dense
  // set's place of a set word is the word's own); the entries from the set, in topic order, with
  // the row's counts, or with zero counts to which each token adds one at its topic's rank
  // (O(n_w + K / 64) per word, no V x K row); then the running sums.
  BUTTERFLY_FN void operator()(std::int64_t w) const {
    const int M = sets.mask_words();
    std::uint64_t* const mask = sets.mask(w);
    const std::int32_t* n = counts ? counts + w * K : nullptr;
    const std::int64_t first = n ? 0 : token_offsets[w], last = n ? 0 : token_offsets[w + 1];
    for (int q = 0; q < M; ++q) mask[q] = 0;
    for (int k = 0; n && k < K; ++k)
      if (n[k] != 0) mask[k / 4096] |= std::uint64_t{1} << (k / 64 % 64);
    for (std::int64_t i = first; i < last; ++i) {
      const std::int32_t k = gathered[i] = z[tokens[i]];
      mask[k / 4096] |= std::uint64_t{1} << (k / 64 % 64);
    }
    const stored_set set = sets.writing(w);
    std::uint64_t* const stored = sets.words + sets.places[w];
    for (std::int64_t p = 0; p < sets.stored_words(w); ++p) stored[p] = 0;
    for (int k = 0; n && k < K; ++k)
      if (n[k] != 0) stored[set.place(k / 64)] |= std::uint64_t{1} << (k % 64);
    for (std::int64_t i = first; i < last; ++i)
      stored[set.place(gathered[i] / 64)] |= std::uint64_t{1} << (gathered[i] % 64);
    const std::int64_t at = entries[w];
    std::int64_t end = at;
    for (int q = 0; q < M; ++q)
      for (std::uint64_t left = mask[q]; left != 0; left &= left - 1) {
        const int j = 64 * q + detail::lowest_set_bit(left);
        for (std::uint64_t b = stored[set.place(j)]; b != 0; b &= b - 1) {
          const int k = 64 * j + detail::lowest_set_bit(b);
          topics[end] = k;
          topic_counts[end++] = n ? n[k] : 0;
        }
      }
    // The ranks first: they find each token's entry in O(1), not O(K / 64).
    sets.write_ranks(w);
    for (std::int64_t i = first; i < last; ++i) ++topic_counts[at + set.rank(gathered[i])];
    write_sums(w, at, end);
    write_list(w, at, end);
  }

  BUTTERFLY_FN void write_sums(std::int64_t w, std::int64_t at, std::int64_t end) const {
    double sum = 0.0, most = 0.0;
    for (std::int64_t e = at; e < end; ++e) {
      const double s = scale[topics[e]], c = static_cast<double>(topic_counts[e]);
      sums[e] = sum += c * s;
      const double weight = (c + prior) * s;
      most = weight > most ? weight : most;
    }
    if (bounds != nullptr) bounds[w] = most;
  }
  BUTTERFLY_FN void write_list(std::int64_t w, std::int64_t at, std::int64_t end) const {
    if (lists == nullptr) return;
    std::int32_t* list = lists + list_offsets[w];
    for (std::int64_t e = at; e < end; ++e)
      for (std::int32_t c = 0; c < topic_counts[e]; ++c) *list++ = topics[e];
  }
};

// Element w: word w's tables as word_buckets makes them from z (counts null), made again
// after only the tokens [first_token, end_token) have moved since they were made, as a block
// of a sweep leaves them (sampler_options::sweep_blocks), and with the scale of the counts
// now: the same set, entries, sums, ranks and lists, in O(the word's tokens in the range +
// its entries + its stored words per set word it gains), reading z only for those tokens,
// where word_buckets reads it for every token of the word at random. gathered holds each
// token's topic as the tables count it; the moved tokens' are brought up to date here.
struct word_bucket_moves {
  word_buckets tables;
  std::int64_t first_token, end_token;
  // Null, or V: where each word's first token at or after end_token is in its list, written
  // here for the next moves (the blocks of a sweep move one range after another); with
  // resume, read first, as the moves before left them: its first token at or after first_token.
  std::int64_t* cursors = nullptr;
  bool resume = false;
  static constexpr std::int64_t grain = word_buckets::grain;
  BUTTERFLY_FN void operator()(std::int64_t w) const {
    const word_buckets& t = tables;
    const word_sets& s = t.sets;
    const std::int64_t at = t.entries[w];
    std::int64_t end = at + s.size(w);
    // The word's tokens in the range: a run of its list, which is in token order. Its start
    // from the cursor or a binary search (a miss per probe in a frequent word's list), its end
    // by walking the run, which the loop below reads anyway.
    const std::int64_t from = t.token_offsets[w], last = t.token_offsets[w + 1];
    const std::int64_t lo = first_token == 0 ? from
                            : resume         ? cursors[w]
                                             : first_from(from, last, first_token);
    std::int64_t hi = lo;
    while (hi < last && t.tokens[hi] < end_token) ++hi;
    if (cursors != nullptr) cursors[w] = hi;
    // Each moved token's count out of its old topic's entry and into its new one's; a topic
    // new to the word is marked in gathered (-1 - k) until its entry is made.
    bool moved = false, grew = false;
    for (std::int64_t i = lo; i < hi; ++i) {
      const std::int32_t o = t.gathered[i], k = t.z[t.tokens[i]];
      if (k == o) continue;
      moved = true;
      --t.topic_counts[at + s.rank(w, o)];
      if (!s.contains(w, k)) {
        grew = true;
        t.gathered[i] = -1 - k;
        continue;
      }
      ++t.topic_counts[at + s.rank(w, k)];
      t.gathered[i] = k;
    }
    if (!moved) return t.write_sums(w, at, end);  // only the scale has changed
    // The entries left at zero out of the set first (and the stored words they empty), so
    // that the new topics' fit in the word's min(n_w, K) places and its stored words' room.
    std::int64_t kept = at;
    for (std::int64_t e = at; e < end; ++e) {
      const std::int32_t k = t.topics[e];
      if (t.topic_counts[e] == 0) {
        s.stored_word(w, k / 64) &= ~(std::uint64_t{1} << (k % 64));
        continue;
      }
      t.topics[kept] = k;
      t.topic_counts[kept++] = t.topic_counts[e];
    }
    const bool dropped = kept < end;
    end = kept;
    if (dropped) s.drop_empty(w);
    if (grew) {
      // The kept entries up to their places in the grown set, from the last; the new at zero.
      std::int64_t from = end - 1;
      for (std::int64_t i = lo; i < hi; ++i)
        if (t.gathered[i] < 0) {
          const std::int32_t k = -1 - t.gathered[i];
          if (!s.writing(w).nonempty(k / 64)) s.insert(w, k / 64);
          std::uint64_t& b = s.stored_word(w, k / 64);
          const std::uint64_t bit = std::uint64_t{1} << (k % 64);
          if (b & bit) continue;  // a topic several tokens moved to: one entry
          b |= bit;
          ++end;
        }
      std::int64_t e = end;
      const int M = s.mask_words();
      for (int q = M - 1; q >= 0; --q)
        for (std::uint64_t left = s.mask(w)[q]; left != 0;) {
          const int bit_j = detail::highest_set_bit(left);
          left &= ~(std::uint64_t{1} << bit_j);
          const int j = 64 * q + bit_j;
          for (std::uint64_t b = s.stored_word(w, j); b != 0;) {
            const int bit = detail::highest_set_bit(b);
            b &= ~(std::uint64_t{1} << bit);
            const std::int32_t k = 64 * j + bit;
            const bool old = from >= at && t.topics[from] == k;
            t.topic_counts[--e] = old ? t.topic_counts[from--] : 0;
            t.topics[e] = k;
          }
        }
    }
    if (grew || dropped) s.write_ranks(w);
    for (std::int64_t i = lo; grew && i < hi; ++i)
      if (t.gathered[i] < 0) {
        t.gathered[i] = -1 - t.gathered[i];
        ++t.topic_counts[at + s.rank(w, t.gathered[i])];
      }
    t.write_sums(w, at, end);
    t.write_list(w, at, end);
  }
  // The first place in tokens [lo, hi) holding a token >= token (hi if none).
  BUTTERFLY_FN std::int64_t first_from(std::int64_t lo, std::int64_t hi, std::int64_t token) const {
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (tables.tokens[mid] < token) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
};

// Element 0: sums[k] = the running sum of scale over topics 0 .. k, in topic order, and
// *largest the largest s_k (a topic of no count's weight beta s_k is at most beta times it).
struct scale_sums {
  const double* scale;
  int K;
  double* sums;
  double* largest;
  static constexpr std::int64_t grain = 1;
  BUTTERFLY_FN void operator()(std::int64_t) const {
    double sum = 0.0, most = 0.0;
    for (int k = 0; k < K; ++k) {
      sums[k] = sum += scale[k];
      most = scale[k] > most ? scale[k] : most;
    }
    *largest = most;
  }
};

// Asks the host's cache for what the next token will read while this one draws (its word's
// entries are scattered over arrays of the corpus's size); nothing on a device.
BUTTERFLY_FN void prefetch(const void* p) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    (defined(__GNUC__) || defined(__clang__))
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

// Whether a sweep fetches what its next tokens will read while this one moves: on the host.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
inline constexpr bool fetch_ahead = false;
#else
inline constexpr bool fetch_ahead = true;
#endif

// The first place in sums[0, n) whose running sum exceeds v (n - 1 when none does).
BUTTERFLY_FN std::int64_t first_above(const double* sums, std::int64_t n, double v) {
  std::int64_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (sums[mid] > v) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// A search of running sums sums[0, n) for v without place `skip` (o's: its interval of the
// running sums is not part of the bucket, so v steps over it). Rounding can land on skip
// itself; its neighbour takes that (measure-zero) case.
BUTTERFLY_FN std::int64_t search_without(const double* sums, std::int64_t n, double v,
                                         std::int64_t skip) {
  const double start = skip > 0 ? sums[skip - 1] : 0.0;
  if (v >= start) v += sums[skip] - start;
  const std::int64_t at = first_above(sums, n, v);
  return at != skip ? at : (skip + 1 < n ? skip + 1 : (skip > 0 ? skip - 1 : skip));
}

// X's weight so far and how many topics it has (collapsed_documents' fold over the topics of both).
struct x_bucket {
  double x = 0.0;
  int c = 0;
};

// Element i: one sweep over the tokens of document m = first_doc + i in order (see the top
// of the file), in slot i of the scratch rows: the document's counts (counted from z at the
// start; during the sweep those of its other tokens as they stand), the set of its topics
// with a non-zero count and its nonempty words (slot_words(K) words), and X's topics and
// running sums (at most K).
// The sampler sweeps the documents a batch of slots at a time, so it holds no M x K counts:
// a document's counts are needed only while it is swept (the word counts are what the
// sweep keeps from one iteration to the next). Documents of at least lanes_from tokens are
// left to collapsed_long_documents (collapsed_lanes.hpp), which draws the same topics with a
// subgroup's lanes over the document's topics.
struct collapsed_documents {
  const std::int64_t* offsets;       // the shard's, from 0
  const std::int32_t* words;         // the shard's
  const std::int64_t* word_entries;  // word_buckets' entries, V + 1
  word_sets sets;                    // word_buckets' topic sets of the previous iteration's counts
  const std::int32_t* word_topics;   // word_buckets' topics, counts and running sums
  const std::int32_t* word_counts;
  const double* word_sums;
  const std::int64_t* totals;   // n_k of the previous iteration, K
  const double* scale;          // s_k = 1 / (n_k + V beta), K
  const double* scale_sum;      // scale_sums, K
  const double* word_bounds;    // word_buckets' bounds, V
  const double* largest_scale;  // scale_sums' largest
  int K;
  double alpha, beta, prior_total;  // prior_total = V beta
  std::uint64_t seed, first_token;
  std::uint32_t iteration;
  std::int32_t* z;                      // the previous iteration's topics in, this iteration's out
  std::int64_t first_doc;               // the document of slot 0
  std::int32_t* doc_counts;             // n_mk, K per slot
  std::uint64_t* doc_bits;              // slot_words(K) per slot
  std::int32_t* picks;                  // K per slot
  double* weights;                      // K per slot
  std::int64_t lanes_from = INT64_MAX;  // documents this long are collapsed_long_documents'
  static constexpr std::int64_t grain = 4;
  // A device's kernel for this step is compiled for 2 resident blocks of threads, not 4: a
  // token's rejection draw (proposed) holds its proposal's and its word's values beside the
  // document's places, more than 64 registers (the static checks found spills at 4).
  static constexpr int min_blocks = 2;

  BUTTERFLY_FN void operator()(std::int64_t i) const {
    // Locals: the stores below could alias the members, which would reload them every time.
    const int K = this->K, J = set_words(K);
    const double* const scale = this->scale;
    std::int32_t* const z = this->z;
    const std::int64_t m = first_doc + i, begin = offsets[m], end = offsets[m + 1];
    if (end - begin >= lanes_from) return;
    std::int32_t* const n = doc_counts + i * K;
    std::uint64_t* const set = doc_bits + i * slot_words(K);
    std::uint64_t* const used = set + J;  // the set's nonempty words
    std::int32_t* const pick = picks + i * K;
    double* const sum = weights + i * K;
    for (int k = 0; k < K; ++k) n[k] = 0;
    for (int j = 0; j < slot_words(K); ++j) set[j] = 0;
    int topics = 0, most = 0;  // the document's topics and a bound on its counts
    for (std::int64_t t = begin; t < end; ++t) {
      topics += n[z[t]]++ == 0;
      most = n[z[t]] > most ? n[z[t]] : most;
      set[z[t] / 64] |= std::uint64_t{1} << (z[t] % 64);
      used[z[t] / 4096] |= std::uint64_t{1} << (z[t] / 64 % 64);
    }
    double doc_sum = document_sum(n, set);
    const word_sets ws = sets;
    for (std::int64_t t = begin; t < end; ++t) {
      const int o = z[t], w = words[t];
      const std::int64_t at = word_entries[w];
      // Ahead: what the place of the token two on reads (its word's entries' place, its topic's
      // set word and rank, and its word's size: where every set is dense the last set word
      // and rank, at places computed from w, else the head, fetched for the token three on,
      // which also gives the set word's place), and what the next token's draw waits on: its
      // own topic's count and running sum, and its word's last running sum (A's total).
      if (t + 3 < end && !ws.all_dense()) {
        prefetch(ws.head(words[t + 3]));
        prefetch(ws.mask(words[t + 3]) + z[t + 3] / 4096);
      }
      if (t + 2 < end) {
        const int w2 = words[t + 2];
        prefetch(word_entries + w2);
        std::int64_t p;
        if (ws.all_dense()) {
          const std::int64_t last = (static_cast<std::int64_t>(w2) + 1) * J - 1;
          prefetch(ws.words + last);
          prefetch(ws.ranks + last);
          p = static_cast<std::int64_t>(w2) * J + z[t + 2] / 64;
        } else {
          const stored_set ahead = ws.of(w2);
          p = ahead.place(z[t + 2] / 64) + (ahead.words - ws.words);
        }
        prefetch(ws.words + p);
        prefetch(ws.ranks + p);
      }
      if (t + 1 < end) {
        const int w1 = words[t + 1];
        const std::int64_t next_at = word_entries[w1], p = next_at + ws.rank(w1, z[t + 1]);
        prefetch(word_counts + p);
        prefetch(word_sums + p);
        prefetch(word_sums + next_at + ws.size(w1) - 1);
      }
      // The token leaves its document.
      if (--n[o] == 0) {
        --topics;
        if ((set[o / 64] &= ~(std::uint64_t{1} << (o % 64))) == 0)
          used[o / 4096] &= ~(std::uint64_t{1} << (o / 64 % 64));
      }
      doc_sum -= scale[o];
      // Where it pays, a draw by rejection first (proposed); where it declines, the buckets.
      int k = proposed(t, o, w, begin, end, n, topics, most);
      if (k >= 0) {
        add(t, k, n, set, used, topics, most, doc_sum);
        continue;
      }
      // X: the topics of both but o, each one's weight added in topic order, its topic and
      // running sum kept for the draw.
      const x_bucket xb = fold_topics_of_both(
          ws, ws.of(w), set, used, at, o, x_bucket{}, [&](x_bucket b, int topic, std::int64_t p) {
            b.x +=
                static_cast<double>(n[topic]) * static_cast<double>(word_counts[p]) * scale[topic];
            pick[b.c] = topic;
            sum[b.c++] = b.x;
            return b;
          });
      const double x = xb.x;
      const int c = xb.c;
      k = draw(t, o, w, n, set, doc_sum, x, [&](double u) {
        int i = 0;
        while (i < c - 1 && !(u < sum[i])) ++i;
        return pick[i];
      });
      add(t, k, n, set, used, topics, most, doc_sum);
    }
  }

  // Token t joins topic k of its document.
  BUTTERFLY_FN void add(std::int64_t t, int k, std::int32_t* n, std::uint64_t* set,
                        std::uint64_t* used, int& topics, int& most, double& doc_sum) const {
    z[t] = k;
    most = n[k] + 1 > most ? n[k] + 1 : most;
    if (n[k]++ == 0) {
      ++topics;
      set[k / 64] |= std::uint64_t{1} << (k % 64);
      used[k / 4096] |= std::uint64_t{1} << (k / 64 % 64);
    }
    doc_sum += scale[k];
  }

  // Token t's new topic drawn exactly by rejection (document [begin, end) with counts n of
  // `topics` topics, none above `most`, word w, previous topic o, the token out of its
  // document's counts), or -1 where that does not pay or every proposal was rejected.
  // p_k = (n_mk + alpha) f_k with f_k = (n_wk + beta) s_k the word's factor (o's without the
  // token, f'_o, as draw takes it). Two proposals, each kept with the other factor over its bound:
  //   from the document: a token of its others (z as the sweep leaves it) or a uniform topic,
  //     O(1), so k ~ (n_mk + alpha); kept with probability f_k / B, B the word's largest f_k
  //     (word_buckets' bound) or beta times the largest s_k;
  //   from the word: its running sums (A's, then S's), k ~ f_k of the tables; kept with
  //     probability (n_mk + alpha) / (most + alpha), o's also times f'_o / f_o.
  // A kept k is distributed exactly as p_k. The one expected to keep more (a word spread over
  // its topics: the document's; a document of even counts: the word's) is tried where the
  // topics both may share are proposal_cost times its expected proposals, and gives up after
  // twice the shared topics / proposal_cost; a token whose proposals all fail is drawn by the
  // buckets from fresh uniforms, which keeps the draw exact. The choice reads the state, which
  // an exact draw may: either way the topic is distributed as p_k. It pays where the buckets
  // cost most: a document of hundreds of topics and a word spread over as many (the uniform
  // start), and long documents later. Not in SparseLDA or the paper (bench/RESULTS.md).
  static constexpr double proposal_cost = 16.0;  // X's terms a document proposal costs, about
  BUTTERFLY_FN int proposed(std::int64_t t, int o, int w, std::int64_t begin, std::int64_t end,
                            const std::int32_t* n, int topics, int most) const {
    if (topics < proposal_cost) return -1;
    const std::int64_t at = word_entries[w], entries = sets.size(w);
    const double shared = static_cast<double>(topics < entries ? topics : entries);
    const std::int64_t others = end - begin - 1;
    const double* const word_sum = word_sums + at;
    const double words = word_sum[entries - 1], all = words + beta * scale_sum[K - 1];
    // Each side's expected proposals per kept one: the bound over the mean over all K topics
    // (the other side's topics are not known to meet its own; a word's search counts twice).
    const double word_bound = word_bounds[w], smooth = beta * *largest_scale;
    const double bound = word_bound > smooth ? word_bound : smooth;
    const double by_document = static_cast<double>(K) * bound / all;
    const double cap = static_cast<double>(most) + alpha;
    const double by_word =
        2.0 * cap / (static_cast<double>(others) / static_cast<double>(K) + alpha);
    const bool document = by_document <= by_word;
    if (!(shared >= proposal_cost * (document ? by_document : by_word))) return -1;
    const double mass = static_cast<double>(others) + static_cast<double>(K) * alpha;
    const std::uint32_t attempts =
        static_cast<std::uint32_t>((document ? 2.0 : 1.0) * shared / proposal_cost);
    for (std::uint32_t a = 1; a <= attempts; ++a) {
      const auto bits = rng::bits(seed, iteration, rng::stream::z,
                                  first_token + static_cast<std::uint64_t>(t), a);
      const double y = rng::u01(bits[2], bits[3]);
      if (document) {
        const double v = rng::u01(bits[0], bits[1]) * mass;
        int k;
        if (v < static_cast<double>(others)) {
          const std::int64_t j = begin + static_cast<std::int64_t>(v);
          k = z[j < t ? j : j + 1];
        } else {
          const double u = (v - static_cast<double>(others)) / alpha;
          k = u < static_cast<double>(K) ? static_cast<int>(u) : K - 1;
        }
        // A topic of the word has a count of 1 or more: below (1 + beta) s_k its count (where
        // the word's entries miss the cache) need not be read.
        const double x = y * bound;
        if (k == o) {
          if (x < own_factor(at + sets.rank(w, o), o)) return k;
        } else if (!sets.contains(w, k)) {
          if (x < beta * scale[k]) return k;
        } else if (x < (1.0 + beta) * scale[k] ||
                   x < (static_cast<double>(word_counts[at + sets.rank(w, k)]) + beta) * scale[k]) {
          return k;
        }
      } else {
        const double v = rng::u01(bits[0], bits[1]) * all;
        const int k = v < words ? word_topics[at + first_above(word_sum, entries, v)]
                                : static_cast<int>(first_above(scale_sum, K, (v - words) / beta));
        double keep = static_cast<double>(n[k]) + alpha;
        if (k == o) {
          const std::int64_t entry = at + sets.rank(w, o);
          keep *=
              own_factor(entry, o) / ((static_cast<double>(word_counts[entry]) + beta) * scale[o]);
        }
        if (y * cap < keep) return k;
      }
    }
    return -1;
  }

  // The word factor of the token's previous topic o without the token itself (its count out of
  // n_wo, at the word's entry `entry`, and out of n_o): (n_wo - 1 + beta) / (n_o - 1 + V beta).
  BUTTERFLY_FN double own_factor(std::int64_t entry, int o) const {
    return (static_cast<double>(word_counts[entry] - 1) + beta) /
           (static_cast<double>(totals[o] - 1) + prior_total);
  }

  // The sum of n_mk s_k over the document's topics (R is beta times it), in topic order; the
  // sweep keeps it as the counts change: the same additions and subtractions on every backend.
  BUTTERFLY_FN double document_sum(const std::int32_t* n, const std::uint64_t* set) const {
    double doc_sum = 0.0;
    for (int j = 0; j < set_words(K); ++j)
      for (std::uint64_t b = set[j]; b != 0; b &= b - 1) {
        const int k = 64 * j + detail::lowest_set_bit(b);
        doc_sum += static_cast<double>(n[k]) * scale[k];
      }
    return doc_sum;
  }

  // Token t's new topic (word w, previous topic o), once it has left its document (n, set,
  // doc_sum without it) and X is summed (x, over the topics of both but o): the other buckets'
  // weights, the uniform, and where it falls. x_topic(u) is X's topic for u < x: the first
  // whose running sum in topic order exceeds u (the last where rounding leaves none).
  template <class XTopic>
  BUTTERFLY_FN int draw(std::int64_t t, int o, int w, const std::int32_t* n,
                        const std::uint64_t* set, double doc_sum, double x,
                        const XTopic& x_topic) const {
    const int J = set_words(K);
    // The word's entries, o's among them, and how many there are.
    const std::int64_t at = word_entries[w], o_entry = sets.rank(w, o), entries = sets.size(w);
    const double* const word_sum = word_sums + at;
    // o's weight, without the token's own count in n_wo and n_o.
    const double own = (static_cast<double>(n[o]) + alpha) * own_factor(at + o_entry, o);
    double r = beta * (doc_sum - static_cast<double>(n[o]) * scale[o]);
    r = r > 0.0 ? r : 0.0;
    const double word_o = word_sum[o_entry] - (o_entry > 0 ? word_sum[o_entry - 1] : 0.0);
    double a = alpha * (word_sum[entries - 1] - word_o);
    a = a > 0.0 ? a : 0.0;
    const double scale_o = scale_sum[o] - (o > 0 ? scale_sum[o - 1] : 0.0);
    double s = alpha * beta * (scale_sum[K - 1] - scale_o);
    s = s > 0.0 ? s : 0.0;
    const auto bits =
        rng::bits(seed, iteration, rng::stream::z, first_token + static_cast<std::uint64_t>(t));
    double u = ((((x + own) + r) + a) + s) * rng::u01(bits[0], bits[1]);
    if (u < x) return x_topic(u);
    if ((u -= x) < own) return o;
    if ((u -= own) < r) {  // the document's topics but o, in topic order
      const double v = u / beta;
      double walked = 0.0;
      int k = o;
      for (int j = 0; j < J && walked <= v; ++j)
        for (std::uint64_t b = set[j]; b != 0 && walked <= v; b &= b - 1) {
          const int i = 64 * j + detail::lowest_set_bit(b);
          if (i == o) continue;
          k = i;
          walked += static_cast<double>(n[i]) * scale[i];
        }
      return k;
    }
    if ((u -= r) < a)
      return word_topics[at + search_without(word_sum, entries, u / alpha, o_entry)];
    return static_cast<int>(search_without(scale_sum, K, (u - a) / (alpha * beta), o));
  }
};

}  // namespace butterfly::lda::steps
