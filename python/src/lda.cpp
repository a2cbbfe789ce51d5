// What butterfly.LDA (python/butterfly/lda.py) needs from butterfly::lda: the corpus
// readers, and a trainer that owns the documents, the library's Gibbs sampler and its state.
// Python calls trainer.iterate() once per iteration, so the estimator runs exactly the
// iterations `butterfly-lda train` runs (an lda::sampler, as the CLI keeps), with a progress
// bar between them.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "butterfly/io/corpus.hpp"
#include "butterfly/lda/checkpoint.hpp"
#include "butterfly/lda/sampler.hpp"
#include "butterfly/lda/evaluation.hpp"

namespace butterfly::python {
namespace {

template <class T>
py::array_t<T> to_numpy(const std::vector<T>& v, py::ssize_t rows, py::ssize_t cols) {
  py::array_t<T> a({rows, cols});
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

template <class T>
py::array_t<T> to_numpy(const std::vector<T>& v) {
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

lda::document_set documents_of(const py::object& doc_offsets, const py::object& words, std::int64_t vocab_size) {
  const auto o = input_int64(doc_offsets, "doc_offsets");
  const auto w = input_int32(words, "words");
  lda::document_set d;
  d.doc_offsets.assign(o.begin(), o.end());
  d.words.assign(w.begin(), w.end());
  d.vocab_size = vocab_size;
  // The private entry points are fed by lda.py, but a wrong CSR must still never read out of
  // bounds in the sampler or the evaluation.
  if (d.doc_offsets.empty() || d.doc_offsets.front() != 0 ||
      d.doc_offsets.back() != static_cast<std::int64_t>(d.words.size()) ||
      !std::is_sorted(d.doc_offsets.begin(), d.doc_offsets.end()))
    throw py::value_error("doc_offsets must start at 0, never decrease and end at len(words)");
  for (const std::int32_t w : d.words)
    if (w < 0 || w >= vocab_size)
      throw py::value_error("word id " + std::to_string(w) + " outside the vocabulary of " +
                            std::to_string(vocab_size) + " words");
  return d;
}

lda::hyperparameters hyper_of(int num_topics, double alpha, double beta) {
  lda::hyperparameters h;
  h.num_topics = num_topics;
  h.alpha = alpha;
  h.beta = beta;
  lda::check(h);
  return h;
}

std::vector<float> phi_of(const py::object& phi, const lda::hyperparameters& h, std::int64_t vocab_size) {
  const matrix p = input_matrix(phi, "phi");
  if (p.rows != vocab_size || p.cols != h.num_topics)
    throw py::value_error("phi must be V x K = " + std::to_string(vocab_size) + " x " +
                          std::to_string(h.num_topics) + ", got " + std::to_string(p.rows) + " x " +
                          std::to_string(p.cols));
  return {p.data.begin(), p.data.end()};
}

// Identifies the documents a checkpoint belongs to (the vocabulary strings are unknown for a
// matrix, so V empty words stand for them).
std::uint64_t checksum_of(const lda::document_set& d) {
  io::corpus c;
  c.doc_offsets = d.doc_offsets;
  c.words = d.words;
  c.vocab.assign(static_cast<std::size_t>(d.vocab_size), std::string());
  return io::checksum(c);
}

class trainer {
 public:
  trainer(const py::object& doc_offsets, const py::object& words, std::int64_t vocab_size, int num_topics,
          double alpha, double beta, std::uint64_t seed, const std::string& method, const std::string& estimator,
          int width, std::optional<std::uint32_t> start_topics, std::uint32_t iterations,
          std::optional<std::uint32_t> average)
      : docs_(documents_of(doc_offsets, words, vocab_size)),
        seed_(seed),
        method_(method),
        start_topics_(start_topics.value_or(lda::default_start_topics(docs_.view().num_docs(), num_topics))),
        average_(average.value_or(lda::default_average(lda::parse_estimator(estimator), 0))),
        iterations_(iterations),
        // What a checkpoint must match besides seed, method and hyperparameters (the CLI
        // keeps its defining options the same way).
        arguments_{"butterfly.LDA", "--estimator=" + estimator, "--width=" + std::to_string(width),
                   "--start-topics=" + std::to_string(start_topics_), "--average=" + std::to_string(average_)},
        chain_(docs_.view(), hyper_of(num_topics, alpha, beta), seed,
               {parse_algorithm(method), width, lda::parse_estimator(estimator), 0, start_topics_, average_,
                iterations}) {
    py::gil_scoped_release unlocked;
    sampler_ = std::make_unique<lda::sampler>(chain_);
  }

  // One Gibbs iteration; returns its seconds (z draw, then the rest).
  std::pair<double, double> iterate() {
    py::gil_scoped_release unlocked;
    const lda::iteration_seconds s = sampler_->iterate();
    return {s.z_draw, s.combine + s.rest};
  }

  std::uint32_t iteration() const { return sampler_->iteration(); }
  // The state is copied from the device (GPU builds) only when read, and only once per iteration.
  py::array_t<float> theta() const { return to_numpy(state().theta, docs_.view().num_docs(), hyper().num_topics); }
  py::array_t<float> phi() const { return to_numpy(state().phi, docs_.vocab_size, hyper().num_topics); }
  py::array_t<std::int32_t> z() const { return to_numpy(state().z); }
  double log_likelihood() const {
    py::gil_scoped_release unlocked;
    return lda::ordered_sum(sampler_->log_likelihood_partials());
  }

  // As the CLI's: z, and theta and phi where the sampler keeps them (lda::sampler::holds_model).
  void save(const std::string& path) const {
    // The run's length last: the sweeps the model pools depend on it (lda::pooled_sweeps).
    lda::checkpoint c{arguments_, seed_, hyper(), method_, checksum_of(docs_), {}, {}};
    c.arguments.push_back(iterations_argument());
    if (sampler_->holds_model()) {
      c.s = state();
    } else {
      c.s.iteration = sampler_->iteration();
      c.s.z = sampler_->current_z();
      c.s.kept = sampler_->current_kept();
    }
    py::gil_scoped_release unlocked;
    lda::save_checkpoint(path, c);
  }

  // Continues from the checkpoint at `path`, which must have been written for these
  // documents and options (io::input_error naming the file otherwise).
  void resume(const std::string& path) {
    lda::checkpoint c = lda::load_checkpoint(path);
    const lda::hyperparameters& h = hyper();
    const bool same_length = !c.arguments.empty() && c.arguments.back() == iterations_argument();
    if (!c.arguments.empty() && c.arguments.back().rfind("--iterations=", 0) == 0) c.arguments.pop_back();
    if (c.corpus_checksum != checksum_of(docs_) || c.seed != seed_ || c.method != method_ ||
        c.arguments != arguments_ ||
        c.hyper.num_topics != h.num_topics || c.hyper.alpha != h.alpha || c.hyper.beta != h.beta)
      throw io::input_error(path + ": checkpoint was written for other documents or options");
    // Fitted on to another max_iter: the sweeps its model pooled are not this run's. Dropped
    // where this run pools none up to the checkpoint; otherwise the run cannot be continued.
    if (!same_length) {
      const std::vector<std::uint32_t> pooled = lda::pooled_sweeps(chain_.options());
      if (!pooled.empty() && pooled.front() <= c.s.iteration)
        throw io::input_error(path + ": checkpoint at iteration " + std::to_string(c.s.iteration) +
                              " was written for another max_iter; max_iter=" + std::to_string(iterations_) +
                              " pools the topics of iteration " + std::to_string(pooled.front()) +
                              " into the model, which it did not keep");
      c.s.kept.clear();
    }
    try {  // the sampler checks the sizes of the state (theta and phi may be absent: save)
      sampler_ = std::make_unique<lda::sampler>(chain_, std::move(c.s));
    } catch (const std::invalid_argument& e) {
      throw io::input_error(path + ": checkpoint was written for other documents or options: " + e.what());
    }
  }

 private:
  const lda::hyperparameters& hyper() const { return chain_.hyper(); }
  const lda::state& state() const { return sampler_->current(); }
  std::string iterations_argument() const { return "--iterations=" + std::to_string(iterations_); }

  const lda::document_set docs_;  // the chain views it
  const std::uint64_t seed_;
  const std::string method_;
  const std::uint32_t start_topics_;  // the one given, or the corpus's default
  const std::uint32_t average_;       // the one given, or the estimator's default
  const std::uint32_t iterations_;    // max_iter: the run's length (sampler_options::iterations)
  const std::vector<std::string> arguments_;
  const lda::chain chain_;
  std::unique_ptr<lda::sampler> sampler_;  // the state, where the backend keeps its memory
};

py::tuple read_corpus_py(const std::string& path, const std::string& format, const std::string& vocab,
                         const std::string& stopwords, int min_df) {
  io::text_options t;
  t.stopwords_path = stopwords;
  t.min_df = min_df;
  io::corpus c;
  {
    py::gil_scoped_release unlocked;
    c = io::read_corpus(path, format.empty() ? io::format_from_name(path) : format, vocab, t);
  }
  return py::make_tuple(to_numpy(c.doc_offsets), to_numpy(c.words), c.vocab);
}

py::array_t<float> infer_theta_py(const py::object& doc_offsets, const py::object& words, const py::object& phi,
                                  int num_topics, double alpha, double beta, int sweeps, std::uint64_t seed) {
  const lda::hyperparameters h = hyper_of(num_topics, alpha, beta);
  const auto p = input_matrix(phi, "phi");
  const lda::document_set d = documents_of(doc_offsets, words, p.rows);
  const std::vector<float> phi_v = phi_of(phi, h, d.vocab_size);
  std::vector<float> theta;
  {
    py::gil_scoped_release unlocked;
    theta = lda::infer_theta(d.view(), phi_v, h, {sweeps, seed});
  }
  return to_numpy(theta, d.view().num_docs(), num_topics);
}

double completion_perplexity_py(const py::object& doc_offsets, const py::object& words, const py::object& phi,
                                int num_topics, double alpha, double beta, int sweeps, std::uint64_t seed) {
  const lda::hyperparameters h = hyper_of(num_topics, alpha, beta);
  const auto p = input_matrix(phi, "phi");
  const lda::document_set d = documents_of(doc_offsets, words, p.rows);
  const std::vector<float> phi_v = phi_of(phi, h, d.vocab_size);
  py::gil_scoped_release unlocked;
  return lda::completion_perplexity(d.view(), phi_v, h, {sweeps, seed}).perplexity;
}

}  // namespace

void add_lda(py::module_& m) {
  using namespace pybind11::literals;
  m.def("_read_corpus", &read_corpus_py, "path"_a, "format"_a, "vocab"_a, "stopwords"_a, "min_df"_a,
        "(doc_offsets, words, vocab) of a corpus file; format '' = guessed from the name as butterfly-lda does");
  m.def("_infer_theta", &infer_theta_py, "doc_offsets"_a, "words"_a, "phi"_a, "num_topics"_a, "alpha"_a, "beta"_a,
        "sweeps"_a, "seed"_a);
  m.def("_completion_perplexity", &completion_perplexity_py, "doc_offsets"_a, "words"_a, "phi"_a, "num_topics"_a,
        "alpha"_a, "beta"_a, "sweeps"_a, "seed"_a);
  py::class_<trainer>(m, "_Trainer")
      .def(py::init<const py::object&, const py::object&, std::int64_t, int, double, double, std::uint64_t,
                    const std::string&, const std::string&, int, std::optional<std::uint32_t>, std::uint32_t,
                    std::optional<std::uint32_t>>(),
           "doc_offsets"_a, "words"_a, "vocab_size"_a, "num_topics"_a, "alpha"_a, "beta"_a, "seed"_a, "method"_a,
           "estimator"_a, "width"_a, "start_topics"_a, "iterations"_a, "average"_a)
      .def("iterate", &trainer::iterate)
      .def_property_readonly("iteration", &trainer::iteration)
      .def("theta", &trainer::theta)
      .def("phi", &trainer::phi)
      .def("z", &trainer::z)
      .def("log_likelihood", &trainer::log_likelihood)
      .def("save", &trainer::save, "path"_a)
      .def("resume", &trainer::resume, "path"_a);
}

}  // namespace butterfly::python
