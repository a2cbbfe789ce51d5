// The executor when BACKEND=emulated: the CUDA/HIP path on the host. Its kernels read the
// emulated device's memory (device_memory.hpp) and run as launches: the draw kernel is the
// core's draw_warps on the plain-array host lanes at the device widths (32, CUDA's warp; 64,
// a CDNA wavefront), with its scratch in device memory as on a GPU.
#include "butterfly/emulated/executor.hpp"

#include "butterfly/detail/executor_of.hpp"
#include "butterfly/emulated/device_memory.hpp"
#include "butterfly/host_lanes/executor.hpp"

namespace butterfly::emulated {
namespace {

class device_memory_space final : public detail::memory_space {
 public:
  detail::memory where() const override { return detail::memory::device; }
  void* allocate(const detail::executor& e, std::size_t bytes) const override {
    return device_allocate(owner_of(e), bytes);
  }
  void release(const detail::executor& e, void* p) const noexcept override {
    device_release(owner_of(e), p);
  }
  void copy_to_device(void* dst, const void* src, std::size_t bytes, void*) const override {
    emulated::copy_to_device(dst, src, bytes);
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes, void*) const override {
    emulated::copy_to_host(dst, src, bytes);
  }
  std::uint64_t copied_bytes() const override { return counters().copied_bytes; }

 private:
  // The name is not read through e: release runs while e is destroyed, when name() is gone.
  static owner owner_of(const detail::executor& e) { return {&e, "emulated"}; }
};

const device_memory_space memory;

class emulated_executor final : public detail::executor_of<emulated_executor, 32, 64> {
 public:
  // counters() starts the device first, so it outlives this executor and sees its releases.
  emulated_executor() : executor_of(memory) { static_cast<void>(counters()); }
  std::string_view name() const override { return "emulated"; }
  int default_width() const override { return 32; }

  template <int W, class Algorithm, class Source>
  void run_warps(const detail::warp_launch<Source>& l, std::int64_t warps) const {
    using SG = host_lanes::subgroup<W>;
    const auto scratch = this->scratch(
        detail::warp_scratch<SG>::template floats<Algorithm>(l.src.K) * sizeof(float));
    const launch kernel;
    detail::draw_warps<Algorithm>(SG{}, l.src, l.z, l.options, 0, warps,
                                  static_cast<float*>(scratch.data));
  }
};

}  // namespace

std::unique_ptr<const detail::executor> make_executor() {
  return std::make_unique<const emulated_executor>();
}

}  // namespace butterfly::emulated

namespace butterfly::detail {

const executor& configured_executor() {
  static const emulated::emulated_executor e;
  return e;
}

}  // namespace butterfly::detail
