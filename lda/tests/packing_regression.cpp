// Regression: warp packing once moved documents to other lanes, and the butterfly search
// (whose rounding depends on the lane) then drew another topic for one AP token at
// iteration 12 of the default run. Packing must leave every z unchanged, on the states a
// real training run reaches.
#include <catch2/catch.hpp>

#include "butterfly/io/corpus.hpp"
#include "butterfly/lda/chain.hpp"

using namespace butterfly;

TEST_CASE("lda: warp packing never changes z on the states of a real run (AP, 12 iterations)",
          "[lda][warp-packing]") {
  const io::corpus ap =
      io::read_uci(BUTTERFLY_DATA "/ap/docword.ap.txt.gz", BUTTERFLY_DATA "/ap/vocab.ap.txt");
  const lda::documents docs{ap.doc_offsets, ap.words, ap.vocab_size()};
  const lda::hyperparameters h;  // the program's defaults: K = 20, alpha 0.1, beta 0.01
  const lda::chain chain(docs, h, 1, {algorithm::butterfly});
  lda::state s = chain.initial_state();
  std::size_t checked = 0;
  for (int it = 0; it < 12; ++it) {
    draw_options o;
    o.method = algorithm::butterfly;
    o.seed = 1;
    o.iteration = s.iteration + 1;  // what the next iterate() draws
    std::vector<std::int32_t> packed(ap.words.size()), unpacked(ap.words.size());
    o.pack_warps = true;
    draw_topics(s.theta, s.phi, h.num_topics, ap.doc_offsets, ap.words, packed, o);
    o.pack_warps = false;
    draw_topics(s.theta, s.phi, h.num_topics, ap.doc_offsets, ap.words, unpacked, o);
    for (std::size_t t = 0; t < packed.size(); ++t)
      if (packed[t] != unpacked[t]) {
        INFO("iteration " << o.iteration << ", token " << t);
        REQUIRE(packed[t] == unpacked[t]);
      }
    checked += packed.size();
    chain.iterate(s);
  }
  REQUIRE(checked == 12 * ap.words.size());
}
