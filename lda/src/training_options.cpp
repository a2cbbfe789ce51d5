#include "butterfly/lda/training_options.hpp"

#include <sstream>

namespace butterfly::lda {
namespace {

// "NAME stored, this run given" for the first pair that differs.
class differences {
 public:
  template <class T>
  differences& check(const char* name, const T& stored, const T& given) {
    if (first_.empty() && !(stored == given)) {
      first_ = text(name, stored, given, 6);
      // Numbers that differ beyond the sixth digit, written in full.
      if (text("", stored, "", 6) == text("", given, "", 6)) first_ = text(name, stored, given, 17);
    }
    return *this;
  }
  std::string first() const { return first_; }

 private:
  template <class T, class U>
  static std::string text(const char* name, const T& stored, const U& given, int digits) {
    std::ostringstream s;
    s.precision(digits);
    s << name << " " << stored << ", this run " << given;
    return s.str();
  }
  std::string first_;
};

}  // namespace

training_options resolved(training_options o, std::int64_t training_docs,
                          std::int64_t training_tokens) {
  if (!o.phased_sweeps)
    o.phased_sweeps =
        o.estimator == estimator::collapsed
            ? default_phased_sweeps(training_docs, training_tokens, o.hyper.num_topics)
            : 0;
  if (!o.start_topics) o.start_topics = default_start_topics(training_docs, o.hyper.num_topics);
  if (!o.average) o.average = default_average(o.estimator, o.burn_in);
  if (!o.sweep_blocks)
    o.sweep_blocks = default_sweep_blocks(o.estimator, training_docs, o.hyper.num_topics);
  if (o.width == 0) o.width = default_width();
  return o;
}

sampler_options sampler_options_of(const training_options& o) {
  sampler_options s;
  s.method = o.method;
  s.width = o.width;
  s.estimator = o.estimator;
  s.burn_in = o.burn_in;
  s.start_topics = o.start_topics.value_or(0);
  s.average = o.average.value_or(1);
  s.sweep_blocks = o.sweep_blocks.value_or(1);
  s.phased_sweeps = o.phased_sweeps.value_or(0);
  s.subgroup_from = o.subgroup_from;
  s.iterations = o.iterations;
  return s;
}

std::string mismatch(const training_options& stored, const training_options& given) {
  differences d;
  d.check("topics", stored.hyper.num_topics, given.hyper.num_topics)
      .check("alpha", stored.hyper.alpha, given.hyper.alpha)
      .check("beta", stored.hyper.beta, given.hyper.beta)
      .check("seed", stored.seed, given.seed)
      .check("estimator", std::string(estimator_name(stored.estimator)),
             std::string(estimator_name(given.estimator)))
      .check("algorithm", std::string(name(stored.method)), std::string(name(given.method)))
      .check("width", stored.width, given.width)
      .check("burn-in", stored.burn_in, given.burn_in)
      .check("start topics", stored.start_topics.value_or(0), given.start_topics.value_or(0))
      .check("average", stored.average.value_or(1), given.average.value_or(1))
      .check("sweep blocks", stored.sweep_blocks.value_or(1), given.sweep_blocks.value_or(1))
      .check("phased sweeps", stored.phased_sweeps.value_or(0), given.phased_sweeps.value_or(0))
      .check("holdout", stored.holdout, given.holdout);
  // The held-out perplexities of the history were scored with the stored sweeps.
  if (stored.holdout > 0) d.check("fold-in sweeps", stored.fold_in_sweeps, given.fold_in_sweeps);
  return d.first();
}

}  // namespace butterfly::lda
