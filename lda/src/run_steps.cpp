#include "butterfly/lda/run_steps.hpp"

#include <type_traits>
#include <utility>

#include "butterfly/host_lanes/subgroup.hpp"

namespace butterfly::lda::steps {
namespace {

// Steps with a host form for a range of elements (steps.hpp: range) run through it.
template <class Step, class = void>
struct has_range : std::false_type {};
template <class Step>
struct has_range<Step, std::void_t<decltype(std::declval<const Step&>().range(0, 0))>>
    : std::true_type {};

using host = host_lanes::subgroup<host_subgroup_width>;

}  // namespace

void run_on_host(const detail::executor& e, const any& s, std::int64_t n) {
  std::visit(
      [&](const auto& step) {
        using Step = std::decay_t<decltype(step)>;
        e.for_each(n, Step::grain, [&step](std::int64_t b, std::int64_t end) {
          if constexpr (runs_on_subgroup<Step>::value) {
            for (std::int64_t i = b; i < end; ++i) step(host{}, i);
          } else if constexpr (has_range<Step>::value) {
            step.range(b, end);
          } else {
            for (std::int64_t i = b; i < end; ++i) step(i);
          }
        });
      },
      static_cast<const any::variant&>(s));
}

}  // namespace butterfly::lda::steps
