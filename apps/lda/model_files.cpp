#include "model_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "butterfly/io/atomic_file.hpp"
#include "butterfly/io/error.hpp"

namespace butterfly::app {

// One pass over phi's rows for all topics: each topic keeps its list in order (probability
// down, then id up), and word w, the largest id yet, enters only above the last entry. A
// partial sort per topic read phi's V x K entries by column K times (a second at K = 1000).
top_words_of_rows::top_words_of_rows(int K, std::int64_t V, int top)
    : n_(static_cast<std::size_t>(std::max<std::int64_t>(0, std::min<std::int64_t>(top, V)))),
      V_(V),
      lists_(static_cast<std::size_t>(K)),
      full_(lists_.size()),
      last_(lists_.size()) {
  for (auto& l : lists_) l.reserve(n_ + 1);
}

void top_words_of_rows::add(std::int64_t w, const float* row) {
  for (std::size_t k = 0; k < lists_.size(); ++k) offer(k, w, row[k]);
}

void top_words_of_rows::offer(std::size_t k, std::int64_t w, float x) {
  if (n_ == 0 || (full_[k] && !(x > last_[k]))) return;
  auto& l = lists_[k];
  auto at = l.end();
  while (at != l.begin() && x > (at - 1)->p) --at;
  l.insert(at, {static_cast<std::int32_t>(w), x});
  if (l.size() > n_) l.pop_back();
  full_[k] = l.size() == n_;
  last_[k] = l.back().p;
}

// The words without a count in topic k tie at zero[k]: the lowest ids not listed yet, after
// the counted ones (as a dense row's ties would be, lower id first).
void top_words_of_rows::fill(const std::vector<float>& zero) {
  for (std::size_t k = 0; k < lists_.size(); ++k) {
    auto& l = lists_[k];
    const std::size_t counted = l.size();
    for (std::int64_t w = 0; w < V_ && l.size() < n_; ++w) {
      const auto listed = [w](const word_probability& e) { return e.word == w; };
      if (std::none_of(l.begin(), l.begin() + static_cast<std::ptrdiff_t>(counted), listed))
        l.push_back({static_cast<std::int32_t>(w), zero[k]});
    }
    full_[k] = l.size() == n_;
  }
}

topic_words top_words(const std::vector<float>& phi, std::int64_t V, int K, int top) {
  top_words_of_rows lists(K, V, top);
  for (std::int64_t w = 0; w < V; ++w) lists.add(w, phi.data() + w * K);
  return lists.take();
}

void print_topics(std::ostream& out, const topic_words& top,
                  const std::vector<std::string>& vocab) {
  const auto K = static_cast<int>(top.size());
  for (int k = 0; k < K; ++k) {
    out << "topic " << (k < 10 && K > 10 ? " " : "") << k << " ";
    for (const auto& e : top[static_cast<std::size_t>(k)]) out << " " << vocab[e.word];
    out << "\n";
  }
}

void write_topics(const std::string& path, const topic_words& top,
                  const std::vector<std::string>& vocab) {
  const auto K = static_cast<int>(top.size());
  io::write_atomic(path, [&](std::ostream& out) {
    char buf[32];
    for (int k = 0; k < K; ++k) {
      out << "topic " << k << ":";
      for (const auto& e : top[static_cast<std::size_t>(k)]) {
        std::snprintf(buf, sizeof buf, "%.6f", e.p);
        out << " " << vocab[e.word] << " " << buf;
      }
      out << "\n";
    }
  });
}

void write_vocab(const std::string& path, const std::vector<std::string>& vocab) {
  io::write_atomic(path, [&](std::ostream& out) {
    for (const auto& w : vocab) out << w << "\n";
  });
}

std::vector<std::string> read_vocab(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw io::input_error(path + ": cannot open the model's vocabulary");
  std::vector<std::string> v;
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

void write_metrics(const std::string& path, const std::vector<lda::metrics_record>& history) {
  io::write_atomic(path, [&](std::ostream& out) {
    for (const auto& r : history) {
      nlohmann::ordered_json line;
      line["iteration"] = r.iteration;
      if (!std::isnan(r.log_likelihood)) line["log_likelihood"] = r.log_likelihood;
      if (!std::isnan(r.perplexity)) line["heldout_perplexity"] = r.perplexity;
      out << line.dump() << "\n";
    }
  });
}

// nlohmann writes the shortest decimal that reads back as the same double, so both files
// round-trip and are the same bytes for the same values.
void write_model_json(const std::string& path, const nlohmann::ordered_json& description) {
  io::write_atomic(path, [&](std::ostream& out) { out << description.dump(2) << "\n"; });
}

nlohmann::json read_model_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::input_error(path + ": cannot open");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nlohmann::json description;
  try {
    description = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte: 1-based position of the offending character.
    const auto before = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(before), '\n');
    throw io::input_error(path + ":" + std::to_string(line) + ": not valid JSON: " + e.what());
  }
  if (!description.is_object())
    throw io::input_error(path + ": expected a JSON object, found " + description.type_name());
  return description;
}

double number_field(const nlohmann::json& description, const std::string& path,
                    const std::string& key) {
  const auto it = description.find(key);
  if (it == description.end())
    throw io::input_error(path + ": no \"" + key + "\" field at the top level");
  if (!it->is_number())
    throw io::input_error(path + ": \"" + key + "\" is " + it->type_name() + ", not a number");
  return it->get<double>();
}

int count_field(const nlohmann::json& description, const std::string& path, const std::string& key,
                int max) {
  const double x = number_field(description, path, key);
  if (!(x >= 1 && x <= max) || x != std::floor(x))
    throw io::input_error(path + ": \"" + key + "\" is " + description.at(key).dump() +
                          ", not a whole number in [1, " + std::to_string(max) + "]");
  return static_cast<int>(x);
}

}  // namespace butterfly::app
