// estimator::hybrid (chain.hpp): collapsed's chain and tables (collapsed_unit), its
// word_buckets also making the words' lists, swept by hybrid_documents (hybrid.hpp):
// collapsed's exact draw for the documents of at most sampler_options::long_document tokens,
// Metropolis-Hastings for the longer ones.
#include "collapsed_unit.hpp"

namespace butterfly::lda {
namespace {

class hybrid_unit final : public collapsed_unit {
 public:
  explicit hybrid_unit(const context& x) : collapsed_unit(x, true) {}

  void sweep(std::uint32_t i) override {
    make_tables();
    steps::hybrid_documents s{};
    static_cast<steps::collapsed_documents&>(s) = documents(i);
    s.long_document = c_.options().long_document;
    s.list_offsets = list_offsets();
    s.lists = lists();
    sweep_documents(s, i);
  }
};

}  // namespace

std::unique_ptr<estimator_unit> make_hybrid_unit(const estimator_unit::context& x) {
  return std::make_unique<hybrid_unit>(x);
}

}  // namespace butterfly::lda
