// The front door: what every draw does before its kernels run, written once for host spans
// (butterfly::draw_topics, butterfly::reference::), device spans (butterfly::cuda::,
// butterfly::hip::), Kokkos Views and the LDA sampler. prepare() checks the arguments on
// host-readable views of them, resolves the width and builds (or fetches) the warp plan;
// launch() points the checked call at the memory the kernels read, stages host spans for a
// device executor, places the plan, and runs the executor's for_each_warp.
#pragma once

#include <cstdint>
#include <memory>

#include "butterfly/detail/checks.hpp"
#include "butterfly/detail/executor.hpp"
#include "butterfly/detail/sources.hpp"
#include "butterfly/detail/warp_plan.hpp"

namespace butterfly::detail {

// The arguments of draw_topics / draw_rows, as one value.
struct topics_args {
  span<const float> theta, phi;
  int num_topics;
  span<const std::int64_t> doc_offsets;
  span<const std::int32_t> words;
  span<std::int32_t> z;
};
struct rows_args {
  span<const float> weights;
  int num_topics;
  span<std::int32_t> out;
};

struct topics_call {
  product_form src;
  std::shared_ptr<const warp_plan> plan;  // keeps src.packed valid; null when unpacked
  int width;
  bool empty() const { return src.N == 0; }
};
struct rows_call {
  row_form src;
  int width;
  bool empty() const { return src.R == 0; }
};

// Checks `host` (host memory; theta, phi and weights are read only with options.validate, so
// their data may then be null) for a draw on e: std::invalid_argument naming fn's argument.
topics_call prepare(const executor& e, const char* fn, const topics_args& host,
                    const draw_options& options);
rows_call prepare(const executor& e, const char* fn, const rows_args& host,
                  const draw_options& options);

// Draws a prepared call from `kernel`, spans of the same sizes as the checked ones in memory
// `where`: host memory, or e's kernel memory. Throws std::runtime_error naming fn when e
// cannot run here. Returns when z (out) is written.
void launch(const executor& e, const char* fn, const topics_call& call, const topics_args& kernel,
            const draw_options& options, memory where, void* stream = nullptr);
void launch(const executor& e, const char* fn, const rows_call& call, const rows_args& kernel,
            const draw_options& options, memory where, void* stream = nullptr);

// prepare + launch. draw(): spans in host memory, or any memory with host-readable views of
// it in `host`. draw_in_place(): spans in e's device memory, checked on host copies of
// doc_offsets and words (always: the plan needs them) and of theta, phi and weights (only
// with options.validate), so an LDA loop that keeps its state on the device passes
// validate = false.
void draw(const executor& e, const char* fn, const topics_args& kernel, const topics_args& host,
          const draw_options& options, memory where, void* stream = nullptr);
void draw(const executor& e, const char* fn, const rows_args& kernel, const rows_args& host,
          const draw_options& options, memory where, void* stream = nullptr);
void draw_in_place(const executor& e, const char* fn, const topics_args& kernel,
                   const draw_options& options, void* stream);
void draw_in_place(const executor& e, const char* fn, const rows_args& kernel,
                   const draw_options& options, void* stream);

}  // namespace butterfly::detail
