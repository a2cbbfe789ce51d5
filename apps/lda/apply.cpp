// butterfly-lda topics and infer: read a trained model directory.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <unordered_map>

#include "butterfly/io/error.hpp"
#include "butterfly/io/npy.hpp"
#include "butterfly/io/topic_counts_file.hpp"
#include "butterfly/lda/evaluation.hpp"
#include "butterfly/lda/topic_counts.hpp"
#include "commands.hpp"
#include "corpus_input.hpp"
#include "model_files.hpp"

namespace butterfly::app {
namespace {

struct model {
  std::vector<std::string> vocab;
  std::vector<float> phi;  // V x K
  int K = 0;
};

// phi from word-topic-counts.txt where the model is its counts (model.json's topics, beta and
// counted_sweeps), else phi.npy.
model read_model(const std::string& dir) {
  model m;
  m.vocab = read_vocab(dir + "/vocab.txt");
  const auto V = static_cast<std::int64_t>(m.vocab.size());
  const std::string counts = dir + "/word-topic-counts.txt";
  if (std::ifstream(counts)) {
    const std::string model_json = dir + "/model.json";
    const nlohmann::json d = read_model_json(model_json);
    m.K = count_field(d, model_json, "topics", 1 << 20);
    const io::topic_count_rows words = io::read_topic_counts(counts, m.K);
    if (words.rows() != V)
      throw io::input_error(counts + ": " + std::to_string(words.rows()) +
                            " rows but vocab.txt has " + std::to_string(V) + " words");
    m.phi = lda::phi_of_counts(words, m.K, number_field(d, model_json, "beta"),
                               count_field(d, model_json, "counted_sweeps", 1 << 16));
    return m;
  }
  io::npy_array phi = io::read_npy(dir + "/phi.npy");
  if (phi.rows != V)
    throw io::input_error(dir + "/phi.npy: " + std::to_string(phi.rows) +
                          " rows but vocab.txt has " + std::to_string(V) + " words");
  m.K = static_cast<int>(phi.cols);
  m.phi = std::move(phi.data);
  return m;
}

}  // namespace

int topics(const topics_args& a) {
  const model m = read_model(a.model);
  print_topics(std::cout,
               top_words(m.phi, static_cast<std::int64_t>(m.vocab.size()), m.K, a.top_words),
               m.vocab);
  return 0;
}

int infer(const infer_args& a) {
  const corpus_source src = corpus_source_from(a.corpus);
  const model m = read_model(a.model);
  const std::string model_json = a.model + "/model.json";
  const nlohmann::json description = read_model_json(model_json);
  lda::hyperparameters h;
  h.num_topics = m.K;
  h.alpha = number_field(description, model_json, "alpha");
  h.beta = number_field(description, model_json, "beta");

  const io::corpus c = load_corpus(src);
  std::unordered_map<std::string, std::int32_t> id;
  for (std::size_t w = 0; w < m.vocab.size(); ++w)
    id.emplace(m.vocab[w], static_cast<std::int32_t>(w));
  lda::document_set docs;
  docs.vocab_size = static_cast<std::int64_t>(m.vocab.size());
  std::int64_t unknown = 0;
  for (std::int64_t d = 0; d < c.num_docs(); ++d) {
    for (std::int64_t t = c.doc_offsets[d]; t < c.doc_offsets[d + 1]; ++t) {
      const auto it = id.find(c.vocab[c.words[t]]);
      if (it == id.end()) ++unknown;
      else docs.words.push_back(it->second);
    }
    docs.doc_offsets.push_back(static_cast<std::int64_t>(docs.words.size()));
  }
  lda::fold_in_options fold;
  fold.sweeps = a.sweeps;
  fold.seed = a.seed;
  const auto theta = lda::infer_theta(docs.view(), m.phi, h, fold);
  io::write_npy(a.out, theta.data(), docs.view().num_docs(), m.K);
  std::fprintf(stderr,
               "theta of %lld documents written to %s (%lld tokens with words unknown to the model "
               "skipped)\n",
               static_cast<long long>(c.num_docs()), a.out.c_str(),
               static_cast<long long>(unknown));
  return 0;
}

}  // namespace butterfly::app
