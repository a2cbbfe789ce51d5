// butterfly-lda topics and infer: read a trained model directory.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <unordered_map>

#include "butterfly/io/error.hpp"
#include "butterfly/io/npy.hpp"
#include "butterfly/lda/evaluation.hpp"
#include "commands.hpp"
#include "corpus_input.hpp"
#include "model_files.hpp"

namespace butterfly::app {
namespace {

struct model {
  std::vector<std::string> vocab;
  io::npy_array phi;
  int K = 0;
};

model read_model(const std::string& dir) {
  model m;
  m.vocab = read_vocab(dir + "/vocab.txt");
  m.phi = io::read_npy(dir + "/phi.npy");
  m.K = static_cast<int>(m.phi.cols);
  if (m.phi.rows != static_cast<std::int64_t>(m.vocab.size()))
    throw io::input_error(dir + "/phi.npy: " + std::to_string(m.phi.rows) + " rows but vocab.txt has " +
                          std::to_string(m.vocab.size()) + " words");
  return m;
}

}  // namespace

int topics(const std::vector<std::string>& args) {
  const std::vector<option_spec> specs = {
      {"model", "DIR", "", "model directory written by butterfly-lda train (required)"},
      {"top-words", "N", "10", "words per topic"},
      {"help", "", "", "show this help"},
  };
  const option_values o(specs, args);
  if (o.flag("help")) {
    std::cout << help_text("butterfly-lda topics --model DIR [OPTIONS]",
                           "Prints the most probable words of every topic of a trained model.", specs);
    return 0;
  }
  if (!o.given("model")) throw usage_error("missing --model DIR");
  const int top = static_cast<int>(o.integer("top-words", 1, 1000));
  const model m = read_model(o.text("model"));
  print_topics(std::cout, m.phi.data, m.vocab, m.K, top);
  return 0;
}

int infer(const std::vector<std::string>& args) {
  std::vector<option_spec> specs = corpus_options();
  const std::vector<option_spec> more = {
      {"model", "DIR", "", "model directory written by butterfly-lda train (required)"},
      {"out", "FILE", "theta.npy", "where to write theta (documents x K float32 .npy)"},
      {"sweeps", "N", "20", "Gibbs sweeps of z and theta per document (the second half is averaged)"},
      {"seed", "S", "1", "random seed"},
      {"help", "", "", "show this help"},
  };
  specs.insert(specs.end(), more.begin(), more.end());
  const option_values o(specs, args);
  if (o.flag("help")) {
    std::cout << help_text("butterfly-lda infer --model DIR --corpus PATH [OPTIONS]",
                           "Estimates the topic proportions of new documents with the model's topics fixed.\n"
                           "Words are matched to the model's vocabulary by spelling; unknown words are skipped.",
                           specs);
    return 0;
  }
  if (!o.given("model")) throw usage_error("missing --model DIR");
  const corpus_source src = corpus_source_from(o, false);
  const int sweeps = static_cast<int>(o.integer("sweeps", 2, 100000));
  const auto seed = static_cast<std::uint64_t>(o.integer("seed", 0, INT64_MAX));
  const std::string dir = o.text("model");
  const model m = read_model(dir);
  lda::hyperparameters h;
  h.num_topics = m.K;
  h.alpha = model_json_number(dir + "/model.json", "alpha");
  h.beta = model_json_number(dir + "/model.json", "beta");

  const io::corpus c = load_corpus(src);
  std::unordered_map<std::string, std::int32_t> id;
  for (std::size_t w = 0; w < m.vocab.size(); ++w) id.emplace(m.vocab[w], static_cast<std::int32_t>(w));
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
  fold.sweeps = sweeps;
  fold.seed = seed;
  const auto theta = lda::infer_theta(docs.view(), m.phi.data, h, fold);
  io::write_npy(o.text("out"), theta.data(), docs.view().num_docs(), m.K);
  std::fprintf(stderr, "theta of %lld documents written to %s (%lld tokens with words unknown to the model skipped)\n",
               static_cast<long long>(c.num_docs()), o.text("out").c_str(), static_cast<long long>(unknown));
  return 0;
}

}  // namespace butterfly::app
