// butterfly::<ns>:: device-resident draws (device_api.hpp): the core's front door
// (detail/draw.hpp) on this backend's executor, with device spans. Plain C++, compiled with
// the backend's BUTTERFLY_DEVICE_HEADER (backends/CMakeLists.txt), which names the namespace.
#include BUTTERFLY_DEVICE_HEADER

#include <stdexcept>
#include <string>

#include "butterfly/detail/draw.hpp"

#define BUTTERFLY_NAME_OF(ns) #ns
#define BUTTERFLY_NAME(ns) BUTTERFLY_NAME_OF(ns)
#define BUTTERFLY_API_NAME(fn) BUTTERFLY_NAME(BUTTERFLY_GPU_NS) "::" fn

namespace butterfly::BUTTERFLY_GPU_NS {

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options, stream_t stream) {
  detail::draw_in_place(detail::configured_executor(), BUTTERFLY_API_NAME("draw_topics"),
                        {theta, phi, num_topics, doc_offsets, words, z}, options, stream);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options, stream_t stream) {
  detail::draw_in_place(detail::configured_executor(), BUTTERFLY_API_NAME("draw_rows"),
                        {weights, num_topics, out}, options, stream);
}

struct topic_draw::prepared {
  int K;
  std::size_t theta, phi, offsets, tokens;  // the checked sizes
  draw_options options;
  detail::topics_call call;
};

namespace {

constexpr const char* prepared_fn = BUTTERFLY_API_NAME("topic_draw");

template <class T>
void require_size(const char* name, span<T> s, std::size_t want) {
  if (s.size() != want)
    throw std::invalid_argument(std::string(prepared_fn) + ": " + name + " has " +
                                std::to_string(s.size()) + " elements; the prepared draw has " +
                                std::to_string(want));
}

}  // namespace

topic_draw::topic_draw(span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                       int num_topics, std::int64_t vocab_size, const draw_options& options) {
  if (num_topics < 1 || vocab_size < 1)
    throw std::invalid_argument(
        std::string(prepared_fn) + ": num_topics = " + std::to_string(num_topics) +
        " and vocab_size = " + std::to_string(vocab_size) + " must be positive");
  const std::size_t K = static_cast<std::size_t>(num_topics);
  const std::size_t M = doc_offsets.empty() ? 0 : doc_offsets.size() - 1;
  draw_options o = options;
  o.validate = false;  // theta and phi are on the device, and not read here
  const detail::topics_args host{
      span<const float>(nullptr, M * K),
      span<const float>(nullptr, static_cast<std::size_t>(vocab_size) * K),
      num_topics,
      doc_offsets,
      words,
      span<std::int32_t>(nullptr, words.size())};
  const detail::executor& e = detail::configured_executor();
  auto call = detail::prepare(e, prepared_fn, host, o);
  if (call.plan) e.place(call.plan);  // uploaded now, so that the calls copy nothing
  p_.reset(new prepared{num_topics, host.theta.size(), host.phi.size(), doc_offsets.size(),
                        words.size(), o, std::move(call)});
}

topic_draw::~topic_draw() = default;
topic_draw::topic_draw(topic_draw&&) noexcept = default;
topic_draw& topic_draw::operator=(topic_draw&&) noexcept = default;

void topic_draw::operator()(span<const float> theta, span<const float> phi,
                            span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                            span<std::int32_t> z, std::uint32_t iteration, stream_t stream) const {
  const prepared& p = *p_;
  require_size("theta", theta, p.theta);
  require_size("phi", phi, p.phi);
  require_size("doc_offsets", doc_offsets, p.offsets);
  require_size("words", words, p.tokens);
  require_size("z", z, p.tokens);
  if (p.call.empty()) return;
  draw_options o = p.options;
  o.iteration = iteration;
  detail::launch(detail::configured_executor(), prepared_fn, p.call,
                 {theta, phi, p.K, doc_offsets, words, z}, o, detail::memory::device, stream);
}

}  // namespace butterfly::BUTTERFLY_GPU_NS
