// The README's API example: draw one topic per token of two documents.
#include <butterfly/butterfly.hpp>

#include <cstdio>
#include <vector>

int main() {
  const int K = 3;                                    // topics
  std::vector<float> theta = {0.7f, 0.2f, 0.1f,       // document 0: mostly topic 0
                              0.0f, 0.1f, 0.9f};      // document 1: mostly topic 2
  std::vector<float> phi = {1.0f, 0.1f, 0.1f,         // word 0: topic 0's word
                            0.1f, 1.0f, 1.0f};        // word 1
  std::vector<std::int64_t> doc_offsets = {0, 3, 5};  // CSR: doc 0 = tokens 0..2, doc 1 = 3..4
  std::vector<std::int32_t> words = {0, 0, 1, 1, 1};
  std::vector<std::int32_t> z(words.size());

  butterfly::draw_options options;
  options.method = butterfly::algorithm::butterfly;  // or basic, transposed
  options.seed = 42;                                 // z is a pure function of
  options.iteration = 0;                             // (seed, iteration, token)
  butterfly::draw_topics(theta, phi, K, doc_offsets, words, z, options);

  for (std::size_t t = 0; t < z.size(); ++t) std::printf("token %zu -> topic %d\n", t, z[t]);
  // Document 1 has theta = 0 for topic 0, so its tokens can never be drawn as topic 0.
  return (z[3] != 0 && z[4] != 0) ? 0 : 1;
}
