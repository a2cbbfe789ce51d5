// collapsed_documents' sweep of a long document by a subgroup (core's seam,
// butterfly/detail/subgroup.hpp): on a device a warp per document where one thread per
// document leaves a 17,000-token document to one thread while its warp's other documents are
// done; on the host the same code on an array of lanes. The lanes share the cost that grows
// with K and with the document's topics, X (collapsed.hpp): lane l ANDs words l, l + W, ... of
// the document's and the word's topic sets (those the word stores, word_sets.hpp), and its
// topics' terms n_mk n_wk s_k are computed lane-parallel (each entry found by the word's
// ranks) and placed in topic order (each lane's place from a scan of the lanes' topic counts,
// integers). Departure from a lane-parallel scan of
// the terms: X's running sum is summed in topic order, one term after the other, as
// collapsed_documents sums it, so that both forms draw the same topics at any width, and which
// documents a subgroup sweeps (sampler_options::subgroup_from) does not change the chain. The
// document's counts and topic set are written by the first lane alone, between the subgroup's
// syncs.
#pragma once

#include <cstdint>
#include <type_traits>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/subgroup.hpp"
#include "butterfly/lda/collapsed.hpp"

namespace butterfly::lda::steps {

using detail::varying;

// Each lane's number of set bits of x, with the operators alone where x is an array of host
// lanes (the SWAR count of Hacker's Delight 5-1, which the host compiler vectorizes), the
// hardware's count where a lane's x is a plain integer (a device thread).
template <class V>
BUTTERFLY_FN auto lane_set_bits(const V& x) {
  if constexpr (std::is_same_v<V, std::uint64_t>) {
    return set_bits(x);
  } else {
    constexpr std::uint64_t m1 = 0x5555555555555555u, m2 = 0x3333333333333333u,
                            m4 = 0x0f0f0f0f0f0f0f0fu, h01 = 0x0101010101010101u;
    const V a = x - ((x >> 1) & m1);
    const V b = (a & m2) + ((a >> 2) & m2);
    const V c = (b + (b >> 4)) & m4;
    return V((c * h01) >> 56);
  }
}

// v as varying<T> (lane by lane on the host's arrays, a plain conversion on a device).
template <class T, class SG, class V>
BUTTERFLY_FN varying<SG, T> lanes_as(const SG&, const V& v) {
  return varying<SG, T>(v);
}

// Each lane's sum of the lanes below it (an exclusive scan, integers: exact in any order).
template <class T, class SG>
BUTTERFLY_FN varying<SG, T> lanes_before(const SG& sg, const varying<SG, T>& v) {
  varying<SG, T> sum = v;
  for (int d = 1; d < SG::width; d *= 2)
    sum = sum + sg.select(sg.lane() >= d, sg.shuffle_up(sum, d), T{0});
  return sum - v;
}

// *p = f(*p) by the first lane alone; the other lanes see it after the next sg.sync().
template <class SG, class T, class F>
BUTTERFLY_FN void first_lane_update(const SG& sg, T* p, const F& f) {
  const auto first = sg.lane() == 0;
  const varying<SG, int> at(0);
  sg.scatter(p, at, varying<SG, T>(f(sg.gather(p, at, first, T{}))), first);
}

// Element i: document first_doc + i of documents, where it has at least documents.lanes_from
// tokens, swept as collapsed_documents sweeps it (the same topics) by one subgroup.
struct collapsed_long_documents {
  collapsed_documents documents;
  static constexpr std::int64_t grain = 1;
  static constexpr bool per_subgroup = true;  // run_steps.hpp: one subgroup per element
  // A device's kernel for this step is compiled for 2 resident blocks of threads, not 4: a
  // lane holds the token's weights, its word's and document's places and its topic set's
  // words at once, a little more than 64 registers (the static checks found an 8-byte spill
  // on sm_90 at 4).
  static constexpr int min_blocks = 2;

  template <class SG>
  BUTTERFLY_FN void operator()(const SG& sg, std::int64_t i) const {
    using ints = varying<SG, int>;
    using bits = varying<SG, std::uint64_t>;
    constexpr int W = SG::width;
    const collapsed_documents& d = documents;
    const int K = d.K, J = set_words(K);
    const std::int64_t m = d.first_doc + i, begin = d.offsets[m], end = d.offsets[m + 1];
    if (end - begin < d.lanes_from) return;
    std::int32_t* const n = d.doc_counts + i * K;
    std::uint64_t* const set = d.doc_bits + i * slot_words(K);  // its nonempty words unused here
    std::int32_t* const pick = d.picks + i * K;
    double* const term = d.weights + i * K;  // X's terms, in topic order
    const ints lane = sg.lane();
    for (int k = 0; k < K; k += W)
      sg.scatter(n, lane + k, varying<SG, std::int32_t>(0), lane + k < K);
    for (int j = 0; j < J; j += W) sg.scatter(set, lane + j, bits(0), lane + j < J);
    sg.sync();
    for (std::int64_t t = begin; t < end; ++t) {
      const int k = d.z[t];
      first_lane_update(sg, n + k, [](const auto& c) { return c + 1; });
      first_lane_update(sg, set + k / 64,
                        [k](const auto& s) { return s | std::uint64_t{1} << (k % 64); });
    }
    sg.sync();
    double doc_sum = d.document_sum(n, set);
    // The document's topics and a bound on its counts, as they change (every lane's the same).
    int topics = 0, most = 0;
    for (int j = 0; j < J; ++j) topics += set_bits(set[j]);
    for (int k = 0; k < K; ++k) most = n[k] > most ? n[k] : most;
    for (std::int64_t t = begin; t < end; ++t) {
      const int o = d.z[t], w = d.words[t];
      // The token leaves its document.
      first_lane_update(sg, n + o, [](const auto& c) { return c - 1; });
      {
        const auto first = lane == 0;
        const ints word(o / 64);
        const varying<SG, std::int32_t> left = sg.gather(n, ints(o), first, std::int32_t{0});
        const bits s = sg.gather(set, word, first, std::uint64_t{0});
        sg.scatter(set, word, bits(s & ~(std::uint64_t{1} << (o % 64))), first && left == 0);
      }
      doc_sum -= d.scale[o];
      sg.sync();
      topics -= n[o] == 0;
      // Where it pays, every lane draws the same topic by rejection (collapsed_documents::
      // proposed); where it declines, X and the buckets.
      int k = d.proposed(t, o, w, begin, end, n, topics, most);
      if (k < 0) k = exact(sg, t, o, w, n, set, pick, term, doc_sum);
      topics += n[k] == 0;  // no lane has written n since the last sync
      most = n[k] + 1 > most ? n[k] + 1 : most;
      sg.sync();
      // The token joins topic k's count (its set bit is set whether new or not).
      first_lane_update(sg, d.z + t, [k](const auto&) { return k; });
      first_lane_update(sg, n + k, [](const auto& v) { return v + 1; });
      first_lane_update(sg, set + k / 64,
                        [k](const auto& s) { return s | std::uint64_t{1} << (k % 64); });
      doc_sum += d.scale[k];
    }
  }

  // Token t's topic by X and the buckets (collapsed_documents::draw), the token out of its
  // document's counts n and topic set; X's topics and terms in the slot's pick and term.
  template <class SG>
  BUTTERFLY_FN int exact(const SG& sg, std::int64_t t, int o, int w, const std::int32_t* n,
                         const std::uint64_t* set, std::int32_t* pick, double* term,
                         double doc_sum) const {
    using ints = varying<SG, int>;
    using longs = varying<SG, std::int64_t>;
    using bits = varying<SG, std::uint64_t>;
    constexpr int W = SG::width;
    const collapsed_documents& d = documents;
    const int J = set_words(d.K);
    const ints lane = sg.lane();
    const stored_set word_set = d.sets.of(w);
    const std::int64_t at = d.word_entries[w];
    // X: lane l takes words l, l + W, ... of the sets, those the word stores (word_sets).
    // W <= 64, so a chunk's words share one mask word (stored_mask: a dense set's mask is
    // not read), and the stored words before it are counted as the chunks go.
    static_assert(W <= 64, "a chunk of the set's words within one mask word");
    int c = 0;
    for (int first_word = 0, before = 0; first_word < J; first_word += W) {
      const std::uint64_t mask = word_set.stored_mask(first_word / 64);
      const ints j = lane + first_word;
      const bits j_bit = lanes_as<std::uint64_t>(sg, j & 63);  // j % 64
      const auto stored = j < J && ((mask >> j_bit) & std::uint64_t{1}) != std::uint64_t{0};
      const ints place =
          word_set.dense
              ? j
              : before + lanes_as<int>(sg, lane_set_bits(bits(mask) & ((bits(1) << j_bit) - 1)));
      if ((first_word + W) % 64 == 0 || first_word + W >= J) before += set_bits(mask);
      const bits word_bits = sg.gather(word_set.words, place, stored, std::uint64_t{0});
      bits b = sg.gather(set, j, stored, std::uint64_t{0}) & word_bits;
      b = sg.select(j == o / 64, bits(b & ~(std::uint64_t{1} << (o % 64))), b);
      const longs word_place = at + lanes_as<std::int64_t>(sg, sg.gather(word_set.ranks, place,
                                                                         stored, std::uint16_t{0}));
      const ints both = lanes_as<int>(sg, lane_set_bits(b));
      ints slot = c + lanes_before<int>(sg, both);
      while (sg.any(b != std::uint64_t{0})) {
        const auto has = b != std::uint64_t{0};
        const bits under = (b & (std::uint64_t{0} - b)) - 1;  // below b's lowest topic
        const ints k = j * 64 + lanes_as<int>(sg, lane_set_bits(under));
        const longs p = word_place + lanes_as<std::int64_t>(sg, lane_set_bits(word_bits & under));
        const varying<SG, double> x =
            lanes_as<double>(sg, sg.gather(n, k, has, std::int32_t{0})) *
            lanes_as<double>(sg, sg.gather(d.word_counts, p, has, std::int32_t{0})) *
            sg.gather(d.scale, k, has, 0.0);
        sg.scatter(pick, slot, varying<SG, std::int32_t>(k), has);
        sg.scatter(term, slot, varying<SG, double>(x), has);
        slot = slot + sg.select(has, 1, 0);
        b = b & (b - 1);
      }
      c = sg.shuffle(slot, W - 1);  // the last lane's: the chunk's end
    }
    sg.sync();
    double x = 0.0;
    for (int q = 0; q < c; ++q) x += term[q];
    return d.draw(t, o, w, n, set, doc_sum, x, [&](double u) {
      double sum = 0.0;
      int q = 0;
      for (; q < c - 1; ++q)
        if (u < (sum += term[q])) break;
      return pick[q];
    });
  }
};

}  // namespace butterfly::lda::steps
