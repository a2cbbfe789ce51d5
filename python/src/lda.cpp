// What butterfly.LDA (python/butterfly/lda.py) needs from butterfly::lda: the corpus
// readers, the library's training run (lda::trainer, what `butterfly-lda train` runs) and its
// defaults, held-out inference and perplexity; NumPy arrays in and out.
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
#include "butterfly/lda/evaluation.hpp"
#include "butterfly/lda/trainer.hpp"

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

lda::document_set documents_of(const py::object& doc_offsets, const py::object& words,
                               std::int64_t vocab_size) {
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

std::vector<float> phi_of(const py::object& phi, const lda::hyperparameters& h,
                          std::int64_t vocab_size) {
  const matrix p = input_matrix(phi, "phi");
  if (p.rows != vocab_size || p.cols != h.num_topics)
    throw py::value_error("phi must be V x K = " + std::to_string(vocab_size) + " x " +
                          std::to_string(h.num_topics) + ", got " + std::to_string(p.rows) + " x " +
                          std::to_string(p.cols));
  return {p.data.begin(), p.data.end()};
}

// The documents' io::checksum, as butterfly-lda's of the same corpus file where `vocabulary`
// is the file's; a matrix has no word strings, so V empty words stand for them.
std::uint64_t checksum_of(const lda::document_set& d, std::vector<std::string> vocabulary) {
  io::corpus c;
  c.doc_offsets = d.doc_offsets;
  c.words = d.words;
  c.vocab = std::move(vocabulary);
  c.vocab.resize(static_cast<std::size_t>(d.vocab_size));
  return io::checksum(c);
}

// The library's training run (lda::trainer) for butterfly.LDA: lda.py calls iterate() once per
// iteration, with a progress bar between them; this holds the documents the run views.
class trainer {
 public:
  trainer(const py::object& doc_offsets, const py::object& words, std::int64_t vocab_size,
          std::vector<std::string> vocabulary, std::optional<lda::corpus_file> corpus,
          lda::training_options o, const std::string& checkpoint, bool resume)
      : docs_(documents_of(doc_offsets, words, vocab_size)) {
    lda::check(o.hyper);
    py::gil_scoped_release unlocked;
    std::optional<lda::resume_from> from;
    if (resume) from = lda::resume_from{lda::load_checkpoint(checkpoint), checkpoint};
    run_ = std::make_unique<lda::trainer>(docs_.view(), checksum_of(docs_, std::move(vocabulary)),
                                          o, std::move(from));
    if (corpus) run_->set_corpus_file(std::move(*corpus));
    lda::training_events e;
    e.checkpoint_path = checkpoint;
    run_->set_events(std::move(e));
  }

  // One Gibbs iteration (with the run's checkpoint where it falls); returns its seconds (z
  // draw, then the rest).
  std::pair<double, double> iterate() {
    py::gil_scoped_release unlocked;
    const lda::iteration_seconds s = run_->step().seconds;
    return {s.z_draw, s.combine + s.rest};
  }

  std::uint32_t iteration() const { return run_->iteration(); }
  // The model's rows, copied from the device (GPU builds) only when read.
  py::array_t<float> theta() {
    return matrix_of(run_->model().theta, run_->training_documents().num_docs());
  }
  py::array_t<float> phi() { return matrix_of(run_->model().phi, docs_.vocab_size); }
  py::array_t<std::int32_t> z() { return to_numpy(run_->z()); }
  double log_likelihood() {
    py::gil_scoped_release unlocked;
    return run_->log_likelihood();
  }
  void save(const std::string& path) {
    py::gil_scoped_release unlocked;
    run_->save(path);
  }

 private:
  py::array_t<float> matrix_of(const lda::row_reader& rows, std::int64_t n) {
    py::array_t<float> a(
        {static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(run_->options().hyper.num_topics)});
    float* out = a.mutable_data();
    py::gil_scoped_release unlocked;
    rows(0, n, out);
    return a;
  }

  const lda::document_set docs_;       // the trainer views it
  std::unique_ptr<lda::trainer> run_;  // the state, where the backend keeps its memory
};

// The library's defaults, for butterfly.LDA's signature.
py::dict training_defaults() {
  const lda::training_options o;
  py::dict d;
  d["n_components"] = o.hyper.num_topics;
  d["doc_topic_prior"] = o.hyper.alpha;
  d["topic_word_prior"] = o.hyper.beta;
  d["max_iter"] = o.iterations;
  d["random_state"] = o.seed;
  d["algorithm"] = std::string(name(o.method));
  d["estimator"] = std::string(lda::estimator_name(o.estimator));
  d["width"] = o.width;
  d["fold_in_sweeps"] = o.fold_in_sweeps;
  return d;
}

lda::training_options options_of(int num_topics, double alpha, double beta, std::uint64_t seed,
                                 const std::string& method, const std::string& estimator, int width,
                                 std::optional<std::uint32_t> start_topics,
                                 std::uint32_t iterations, std::optional<std::uint32_t> average,
                                 std::optional<std::uint32_t> sweep_blocks,
                                 std::optional<std::uint32_t> phased_sweeps,
                                 std::uint32_t subgroup_from, std::uint32_t checkpoint_every,
                                 int fold_in_sweeps) {
  lda::training_options o;
  o.hyper = {num_topics, alpha, beta};
  o.seed = seed;
  o.method = parse_algorithm(method);
  o.estimator = lda::parse_estimator(estimator);
  o.width = width;
  o.start_topics = start_topics;
  o.iterations = iterations;
  o.average = average;
  o.sweep_blocks = sweep_blocks;
  o.phased_sweeps = phased_sweeps;
  o.subgroup_from = subgroup_from;
  o.eval_every = 0;  // the log-likelihood after the last iteration only (log_likelihood_)
  o.checkpoint_every = checkpoint_every;
  o.fold_in_sweeps = fold_in_sweeps;
  return o;
}

py::tuple read_corpus_py(const std::string& path, const std::string& format,
                         const std::string& vocab, const std::string& stopwords, int min_df) {
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

py::array_t<float> infer_theta_py(const py::object& doc_offsets, const py::object& words,
                                  const py::object& phi, int num_topics, double alpha, double beta,
                                  int sweeps, std::uint64_t seed) {
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

double completion_perplexity_py(const py::object& doc_offsets, const py::object& words,
                                const py::object& phi, int num_topics, double alpha, double beta,
                                int sweeps, std::uint64_t seed) {
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
        "(doc_offsets, words, vocab) of a corpus file; format '' = guessed from the name as "
        "butterfly-lda does");
  m.def("_infer_theta", &infer_theta_py, "doc_offsets"_a, "words"_a, "phi"_a, "num_topics"_a,
        "alpha"_a, "beta"_a, "sweeps"_a, "seed"_a);
  m.def("_completion_perplexity", &completion_perplexity_py, "doc_offsets"_a, "words"_a, "phi"_a,
        "num_topics"_a, "alpha"_a, "beta"_a, "sweeps"_a, "seed"_a);
  m.def("_format_from_name", &io::format_from_name, "path"_a);
  m.def("_training_defaults", &training_defaults);
  m.def("_training_options", &options_of, "num_topics"_a, "alpha"_a, "beta"_a, "seed"_a, "method"_a,
        "estimator"_a, "width"_a, "start_topics"_a, "iterations"_a, "average"_a, "sweep_blocks"_a,
        "phased_sweeps"_a, "subgroup_from"_a, "checkpoint_every"_a, "fold_in_sweeps"_a);
  py::class_<lda::training_options>(m, "_TrainingOptions");
  py::class_<lda::corpus_file>(m, "_CorpusFile")
      .def(py::init([](std::string format, std::string path, std::string vocab,
                       std::string stopwords, int min_df) {
             return lda::corpus_file{std::move(format), std::move(path), std::move(vocab),
                                     std::move(stopwords), min_df};
           }),
           "format"_a, "path"_a, "vocab"_a, "stopwords"_a, "min_df"_a);
  py::class_<trainer>(m, "_Trainer")
      .def(py::init<const py::object&, const py::object&, std::int64_t, std::vector<std::string>,
                    std::optional<lda::corpus_file>, lda::training_options, const std::string&,
                    bool>(),
           "doc_offsets"_a, "words"_a, "vocab_size"_a, "vocabulary"_a, "corpus"_a, "options"_a,
           "checkpoint"_a, "resume"_a)
      .def("iterate", &trainer::iterate)
      .def_property_readonly("iteration", &trainer::iteration)
      .def("theta", &trainer::theta)
      .def("phi", &trainer::phi)
      .def("z", &trainer::z)
      .def("log_likelihood", &trainer::log_likelihood)
      .def("save", &trainer::save, "path"_a);
}

}  // namespace butterfly::python
