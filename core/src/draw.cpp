// The front door (detail/draw.hpp), the public draws of butterfly.hpp on it, and the
// executor's defaults (host memory, one-thread loops, device plan cache).
#include "butterfly/detail/draw.hpp"

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "butterfly/detail/kernel_array.hpp"

namespace butterfly::detail {

// ---- host memory, and what every executor keeps in its own

namespace {

class host_memory_space final : public memory_space {
 public:
  memory where() const override { return memory::host; }
  void* allocate(const executor&, std::size_t bytes) const override {
    return ::operator new(bytes);
  }
  void release(const executor&, void* p) const noexcept override { ::operator delete(p); }
  void copy_to_device(void* dst, const void* src, std::size_t bytes, void*) const override {
    std::memcpy(dst, src, bytes);
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes, void*) const override {
    std::memcpy(dst, src, bytes);
  }
  std::uint64_t copied_bytes() const override { return 0; }
};

}  // namespace

const memory_space& host_memory() {
  static const host_memory_space m;  // trivially destructible: lives until the process ends
  return m;
}

// The cached plans (members) go after this, also through the executor's memory space.
executor::~executor() {
  if (scratch_) release(scratch_);
}

executor::scratch_lease executor::scratch(std::size_t bytes) const {
  std::unique_lock<std::mutex> lock(scratch_mutex_);
  if (bytes > scratch_bytes_) {
    if (scratch_) release(std::exchange(scratch_, nullptr));
    scratch_bytes_ = 0;
    scratch_ = allocate(bytes);
    scratch_bytes_ = bytes;
  }
  return {scratch_, std::move(lock)};
}

void executor::for_each(std::int64_t n, std::int64_t chunk, const chunk_body& body) const {
  chunked_loop loop(n, chunk, body);
  for (std::int64_t c = 0; c < loop.chunks(); ++c) loop.run(c);
  loop.rethrow();
}

// One plan's slots in device memory.
struct executor::device_plan {
  kernel_array<std::int64_t> doc, first, count;
  device_plan(const executor& e, const warp_plan& p)
      : doc(e, p.doc.data(), p.doc.size()),
        first(e, p.first.data(), p.first.size()),
        count(e, p.count.data(), p.count.size()) {}
};

executor::placed_plan executor::place(const std::shared_ptr<const warp_plan>& plan) const {
  if (kernel_memory() == memory::host)
    return {{plan->doc.data(), plan->first.data(), plan->count.data(),
             static_cast<std::int64_t>(plan->doc.size())},
            plan};
  auto copy = plans_.get(plan, [this](const warp_plan& p) { return device_plan(*this, p); });
  return {{copy->doc.data(), copy->first.data(), copy->count.data(),
           static_cast<std::int64_t>(copy->doc.size())},
          copy};
}

void require_available(const executor& e, const char* fn) {
  const std::string reason = e.unavailable_reason();
  if (!reason.empty()) throw std::runtime_error(std::string("butterfly::") + fn + ": " + reason);
}

// ---- the front door

topics_call prepare(const executor& e, const char* fn, const topics_args& a,
                    const draw_options& o) {
  const auto s = check_topics(fn, a.theta, a.phi, a.num_topics, a.doc_offsets, a.words, a.z, o);
  const int width = resolve_width(fn, o.width, e.default_width(), e.widths());
  auto plan = o.pack_warps && s.N > 0 ? cached_warp_plan(a.doc_offsets, width,
                                                         lane_dependent(o.method), o.first_document)
                                      : nullptr;
  const product_form src{nullptr,
                         nullptr,
                         nullptr,
                         nullptr,
                         s.M,
                         s.N,
                         s.K,
                         packed_slots{nullptr, nullptr, nullptr, 0},
                         lane_of(static_cast<std::uint64_t>(o.first_document), width),
                         s.V};
  return {src, std::move(plan), width};
}

rows_call prepare(const executor& e, const char* fn, const rows_args& a, const draw_options& o) {
  const std::int64_t R = check_rows(fn, a.weights, a.num_topics, a.out, o);
  const int width = resolve_width(fn, o.width, e.default_width(), e.widths());
  return {row_form{nullptr, R, a.num_topics, lane_of(o.first_token, width)}, width};
}

// Host spans for a device executor are staged in mirrors: inputs uploaded, z copied back.
void launch(const executor& e, const char* fn, const topics_call& c, const topics_args& k,
            const draw_options& o, memory where, void* stream) {
  require_available(e, fn);
  const mirror<const float> theta(e, k.theta.data(), k.theta.size(), where),
      phi(e, k.phi.data(), k.phi.size(), where);
  const mirror<const std::int64_t> offsets(e, k.doc_offsets.data(), k.doc_offsets.size(), where);
  const mirror<const std::int32_t> words(e, k.words.data(), k.words.size(), where);
  const mirror<std::int32_t> z(e, k.z.data(), k.z.size(), where, false);
  product_form src = c.src;
  src.theta = theta.data();
  src.phi = phi.data();
  src.offsets = offsets.data();
  src.words = words.data();
  executor::placed_plan plan;
  if (c.plan) {
    plan = e.place(c.plan);
    src.packed = plan.slots;
  }
  e.for_each_warp(warp_launch<product_form>{src, c.width, o, z.data(), stream});
  z.download(k.z.data());
}

void launch(const executor& e, const char* fn, const rows_call& c, const rows_args& k,
            const draw_options& o, memory where, void* stream) {
  require_available(e, fn);
  const mirror<const float> weights(e, k.weights.data(), k.weights.size(), where);
  const mirror<std::int32_t> out(e, k.out.data(), k.out.size(), where, false);
  row_form src = c.src;
  src.weights = weights.data();
  e.for_each_warp(warp_launch<row_form>{src, c.width, o, out.data(), stream});
  out.download(k.out.data());
}

void draw(const executor& e, const char* fn, const topics_args& kernel, const topics_args& host,
          const draw_options& o, memory where, void* stream) {
  const auto call = prepare(e, fn, host, o);
  if (!call.empty()) launch(e, fn, call, kernel, o, where, stream);
}

void draw(const executor& e, const char* fn, const rows_args& kernel, const rows_args& host,
          const draw_options& o, memory where, void* stream) {
  const auto call = prepare(e, fn, host, o);
  if (!call.empty()) launch(e, fn, call, kernel, o, where, stream);
}

namespace {

// A host copy of device span s, made on the caller's stream, or s itself (only its size is
// read) when not needed.
template <class T>
struct readable {
  std::vector<T> copy;
  span<const T> view;
  readable(const executor& e, span<const T> s, bool needed, void* stream) : view(s) {
    if (!needed) return;
    copy.resize(s.size());
    e.copy_to_host(copy.data(), s.data(), s.size() * sizeof(T), stream);
    view = copy;
  }
};

}  // namespace

void draw_in_place(const executor& e, const char* fn, const topics_args& k, const draw_options& o,
                   void* stream) {
  const readable<float> theta(e, k.theta, o.validate, stream), phi(e, k.phi, o.validate, stream);
  const readable<std::int64_t> offsets(e, k.doc_offsets, true, stream);
  const readable<std::int32_t> words(e, k.words, true, stream);
  draw(e, fn, k, {theta.view, phi.view, k.num_topics, offsets.view, words.view, k.z}, o,
       memory::device, stream);
}

void draw_in_place(const executor& e, const char* fn, const rows_args& k, const draw_options& o,
                   void* stream) {
  const readable<float> weights(e, k.weights, o.validate, stream);
  draw(e, fn, k, {weights.view, k.num_topics, k.out}, o, memory::device, stream);
}

}  // namespace butterfly::detail

// ---- the public draws (butterfly.hpp)

namespace butterfly {

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options) {
  const detail::topics_args a{theta, phi, num_topics, doc_offsets, words, z};
  detail::draw(detail::configured_executor(), "draw_topics", a, a, options, detail::memory::host);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options) {
  const detail::rows_args a{weights, num_topics, out};
  detail::draw(detail::configured_executor(), "draw_rows", a, a, options, detail::memory::host);
}

std::string_view backend_name() { return detail::configured_executor().name(); }
std::string backend_unavailable_reason() {
  return detail::configured_executor().unavailable_reason();
}
int default_width() { return detail::configured_executor().default_width(); }
std::vector<int> supported_widths() { return detail::configured_executor().widths(); }

namespace reference {

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options) {
  const detail::topics_args a{theta, phi, num_topics, doc_offsets, words, z};
  detail::draw(detail::reference_executor(), "reference::draw_topics", a, a, options,
               detail::memory::host);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options) {
  const detail::rows_args a{weights, num_topics, out};
  detail::draw(detail::reference_executor(), "reference::draw_rows", a, a, options,
               detail::memory::host);
}

int default_width() { return detail::reference_executor().default_width(); }
std::vector<int> supported_widths() { return detail::reference_executor().widths(); }

}  // namespace reference
}  // namespace butterfly
