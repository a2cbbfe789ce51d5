// The files of a model directory: phi.npy, theta.npy, topics.txt, vocab.txt, model.json,
// metrics.jsonl. All are written with io::write_atomic.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "butterfly/lda/checkpoint.hpp"

namespace butterfly::app {

// Per topic k, its `top` most probable words and their probabilities (ties: lower id first).
struct word_probability {
  std::int32_t word;
  float p;
};
using topic_words = std::vector<std::vector<word_probability>>;
// The lists from phi's rows given one at a time, words in increasing order (so phi need not
// exist whole: the trainer makes it a chunk of rows at a time).
class top_words_of_rows {
 public:
  top_words_of_rows(int K, std::int64_t V, int top);
  void add(std::int64_t w, const float* row);  // row w of phi (K floats)
  // Or phi's sparse rows (a model's counts): entry (w, k) of value p, words in increasing
  // order; then fill with each topic's value of the words it has no count of, zero[k] (below
  // every counted word's), for the lists that are short.
  void offer(std::size_t k, std::int64_t w, float p);
  void fill(const std::vector<float>& zero);
  topic_words take() { return std::move(lists_); }

 private:
  std::size_t n_;
  std::int64_t V_;
  topic_words lists_;
  // Per topic: whether its list is full, and then its last probability. Most of phi's V x K
  // entries fall below that and are passed over on these two flat arrays, without reading
  // the K lists (a third of the time of writing phi.npy at K = 1000).
  std::vector<unsigned char> full_;
  std::vector<float> last_;
};
topic_words top_words(const std::vector<float>& phi, std::int64_t V, int K, int top);

// "topic  3  word word word ..." per topic, for people.
void print_topics(std::ostream& out, const topic_words& top, const std::vector<std::string>& vocab);

// topics.txt: "topic K: word p word p ..." per topic, probabilities %.6f.
void write_topics(const std::string& path, const topic_words& top,
                  const std::vector<std::string>& vocab);
void write_vocab(const std::string& path, const std::vector<std::string>& vocab);
std::vector<std::string> read_vocab(const std::string& path);
// One JSON object per line and record: iteration, log_likelihood, heldout_perplexity (the
// last two omitted when NaN, i.e. not measured).
void write_metrics(const std::string& path, const std::vector<lda::metrics_record>& history);

// model.json: `description` (an object; its keys in their order) as indented JSON.
void write_model_json(const std::string& path, const nlohmann::ordered_json& description);
// model.json read back: an object, or io::input_error naming the file (and line).
nlohmann::json read_model_json(const std::string& path);
// The number `key` at the top level of model.json `description` (read from `path`), or
// io::input_error naming the file and the key.
double number_field(const nlohmann::json& description, const std::string& path,
                    const std::string& key);
// The same for a whole number in [1, max].
int count_field(const nlohmann::json& description, const std::string& path, const std::string& key,
                int max);

}  // namespace butterfly::app
