// estimator::mh (chain.hpp): after mean's burn-in, each token moves by Metropolis-Hastings
// proposals from its document and its word (metropolis.hpp), the word proposal reading each
// word's list of its tokens' topics (word_topics), made once per iteration from the counts.
// n_mk is kept up to date by the sweep itself; theta and phi are mean's posterior means.
#include <vector>

#include "mean_unit.hpp"

namespace butterfly::lda {
namespace {

class mh_unit final : public mean_unit {
 public:
  explicit mh_unit(const context& x)
      : mean_unit(x),
        totals_(executor(), size_of(a_.K)),
        list_places_(word_list_places(c_)),
        list_offsets_(executor(), list_places_.data(), list_places_.size()),
        lists_(executor(), size_of(list_places_.back())) {}

  bool sweeping() const override { return true; }

  void sweep(std::uint32_t i) override {
    if (!lists_valid_)
      run(steps::word_topics{list_offsets_.data(), a_.n_wk.data(), a_.K, lists_.data()},
          c_.docs().vocab_size);
    lists_valid_ = true;
    const hyperparameters& h = c_.hyper();
    steps::mh_documents s{};
    s.offsets = a_.offsets.data();
    s.words = a_.words.data();
    s.word_counts = a_.n_wk.data();
    s.word_offsets = list_offsets_.data();
    s.topics = lists_.data();
    s.totals = totals_.data();
    s.scale = a_.scale.data();
    s.K = a_.K;
    s.alpha = h.alpha;
    s.beta = h.beta;
    s.prior_total = static_cast<double>(c_.docs().vocab_size) * h.beta;
    s.seed = c_.seed();
    s.first_token = static_cast<std::uint64_t>(c_.part().first_token);
    s.iteration = i;
    s.z = a_.z.data();
    s.doc_counts = a_.n_mk.data();
    run(s, c_.part().num_docs());
    swept_ = true;
  }

 private:
  // The sweep keeps n_mk up to date itself. In one process the lists come with the word
  // counts; with a combiner, from the combined counts when the sweep needs them.
  double count_counts(std::uint32_t i) override {
    const bool lists = !c_.combiner() && sweeps(i + 1);
    const double combine_seconds = count(!swept_ && a_.holds, lists ? lists_.data() : nullptr);
    swept_ = false;
    lists_valid_ = lists;
    return combine_seconds;
  }
  std::int64_t* totals() override { return totals_.data(); }

  state_array<std::int64_t> totals_;  // n_k of the previous iteration
  std::vector<std::int64_t> list_places_;
  detail::mirror<const std::int64_t> list_offsets_;
  state_array<std::int32_t> lists_;  // the words' lists (word_topics)
  bool swept_ = false;               // n_mk is that of z (the sweep kept it)
  bool lists_valid_ = false;         // the lists are those of the counts
};

}  // namespace

std::unique_ptr<estimator_unit> make_mh_unit(const estimator_unit::context& x) {
  return std::make_unique<mh_unit>(x);
}

}  // namespace butterfly::lda
