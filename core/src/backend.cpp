#include "butterfly/detail/backend.hpp"

#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>

#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/lda/steps.hpp"

namespace butterfly::detail {
namespace {

// Steps with a host form for a range of elements (lda/steps.hpp: range) run through it.
template <class Step, class = void>
struct has_range : std::false_type {};
template <class Step>
struct has_range<Step, std::void_t<decltype(std::declval<const Step&>().range(0, 0))>> : std::true_type {};

}  // namespace

void* backend::allocate(std::size_t bytes) const { return ::operator new(bytes); }

void backend::release(void* p) const noexcept { ::operator delete(p); }

void backend::copy_to_device(void* dst, const void* host_src, std::size_t bytes) const {
  if (bytes > 0) std::memcpy(dst, host_src, bytes);
}

void backend::copy_to_host(void* host_dst, const void* src, std::size_t bytes) const {
  if (bytes > 0) std::memcpy(host_dst, src, bytes);
}

void backend::upload(const std::shared_ptr<const warp_plan>&) const {}

void backend::run(const lda::steps::any& s, std::int64_t n) const { run_on_host(s, n); }

void run_on_host(const lda::steps::any& s, std::int64_t n) {
  std::visit(
      [n](const auto& step) {
        using Step = std::decay_t<decltype(step)>;
        host_parallel_for(n, Step::grain, [&step](std::int64_t b, std::int64_t e) {
          if constexpr (has_range<Step>::value) {
            step.range(b, e);
          } else {
            for (std::int64_t i = b; i < e; ++i) step(i);
          }
        });
      },
      static_cast<const lda::steps::any::variant&>(s));
}

void require_available(const backend& b, const char* fn) {
  const std::string reason = b.unavailable_reason();
  if (!reason.empty()) throw std::runtime_error(std::string("butterfly::") + fn + ": " + reason);
}

}  // namespace butterfly::detail
