// The seam (core/include/butterfly/detail/backend.hpp) when BACKEND=cuda or hip. Host spans
// are copied to the device and z back; device spans (the device-resident API, lda::engine)
// are drawn in place. The warp plan is uploaded once per plan and cached. The LDA steps run
// as kernels on device memory.
#include "butterfly/cuda_hip/runtime.hpp"

#include <string>

#include "butterfly/cuda_hip/device_buffer.hpp"
#include "butterfly/cuda_hip/launch.hpp"
#include "butterfly/detail/backend.hpp"
#include "butterfly/detail/uploaded_plans.hpp"

namespace butterfly::detail {
namespace {

// One plan's slots in device memory.
struct device_plan {
  cuda_hip::device_buffer<std::int64_t> doc, first, count;
  explicit device_plan(const warp_plan& p) : doc(p.doc), first(p.first), count(p.count) {}
  packed_slots slots() const {
    return {doc.data(), first.data(), count.data(), static_cast<std::int64_t>(doc.size())};
  }
};

// Device copies of a host-span call's inputs; empty for device spans.
template <class T>
struct on_device {
  cuda_hip::device_buffer<T> copy;
  const T* ptr;
  on_device(const T* p, std::size_t n, memory where)
      : copy(where == memory::host ? cuda_hip::device_buffer<T>(span<const T>(p, n))
                                   : cuda_hip::device_buffer<T>()),
        ptr(where == memory::host ? copy.data() : p) {}
};

class gpu_backend final : public backend {
 public:
  gpu_backend() { cuda_hip::start_runtime(); }

  std::string_view name() const override { return BUTTERFLY_RT_NAME; }

  std::string unavailable_reason() const override {
    int count = 0;
    const cuda_hip::error_t e = BUTTERFLY_RT(GetDeviceCount)(&count);
    if (e != BUTTERFLY_RT(Success)) {
      static_cast<void>(BUTTERFLY_RT(GetLastError)());  // not sticky; clear it for later calls
      return std::string("no " BUTTERFLY_RT_NAME " device: " BUTTERFLY_RT_NAME
                         "GetDeviceCount returned ") +
             BUTTERFLY_RT(GetErrorName)(e) + " (" + BUTTERFLY_RT(GetErrorString)(e) + ")";
    }
    if (count == 0)
      return "no " BUTTERFLY_RT_NAME " device: " BUTTERFLY_RT_NAME "GetDeviceCount found 0 devices";
    return {};
  }

  // CUDA warps have 32 lanes. On HIP the width is the device's wavefront size; without a
  // device we report 64, the wavefront of the CDNA targets (gfx90a) this backend aims at.
  int native_width() const override {
#if defined(__HIP__)
    if (unavailable_reason().empty()) return cuda_hip::device_warp_size();
    return 64;
#else
    return 32;
#endif
  }
  const std::vector<int>& supported_widths() const override {
    static const std::vector<int> widths{native_width()};
    return widths;
  }

  void draw(const product_form& src, const launch& l) const override {
    const std::size_t K = static_cast<std::size_t>(src.K);
    const std::size_t M = static_cast<std::size_t>(src.M), N = static_cast<std::size_t>(src.N);
    const std::size_t V = static_cast<std::size_t>(src.V);
    const on_device<float> theta(src.theta, M * K, l.where), phi(src.phi, V * K, l.where);
    const on_device<std::int64_t> offsets(src.offsets, M + 1, l.where);
    const on_device<std::int32_t> words(src.words, N, l.where);
    product_form d = src;
    d.theta = theta.ptr;
    d.phi = phi.ptr;
    d.offsets = offsets.ptr;
    d.words = words.ptr;
    std::shared_ptr<const device_plan> plan;
    if (l.plan) {
      plan = uploaded(l.plan);
      d.packed = plan->slots();
    }
    run(d, N, l);
  }

  void draw(const row_form& src, const launch& l) const override {
    const std::size_t R = static_cast<std::size_t>(src.R);
    const on_device<float> weights(src.weights, R * static_cast<std::size_t>(src.K), l.where);
    row_form d = src;
    d.weights = weights.ptr;
    run(d, R, l);
  }

  memory kernel_memory() const override { return memory::device; }
  void* allocate(std::size_t bytes) const override { return cuda_hip::device_allocate(bytes); }
  void release(void* p) const noexcept override { cuda_hip::device_free(p); }
  void copy_to_device(void* dst, const void* host_src, std::size_t bytes) const override {
    cuda_hip::copy_to_device(dst, host_src, bytes);
  }
  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override {
    cuda_hip::copy_to_host(host_dst, src, bytes);
  }
  void upload(const std::shared_ptr<const warp_plan>& plan) const override { uploaded(plan); }
  std::uint64_t copied_bytes() const override { return cuda_hip::copied_bytes(); }
  void run(const lda::steps::any& s, std::int64_t n) const override { cuda_hip::launch_step(s, n, nullptr); }

 private:
  // Launches on the caller's stream; for host spans z goes through a device buffer.
  template <class Source>
  void run(const Source& d, std::size_t outputs, const launch& l) const {
    const auto stream = static_cast<cuda_hip::stream_t>(l.stream);
    if (l.where == memory::device) {
      cuda_hip::launch_draw(d, l.z, l.width, l.options, stream);
      return;
    }
    cuda_hip::device_buffer<std::int32_t> z(outputs);
    cuda_hip::launch_draw(d, z.data(), l.width, l.options, stream);
    z.copy_to(span<std::int32_t>(l.z, outputs));
  }

  std::shared_ptr<const device_plan> uploaded(const std::shared_ptr<const warp_plan>& plan) const {
    return plans_.get(plan, [](const warp_plan& p) { return device_plan(p); });
  }

  mutable uploaded_plans<device_plan> plans_;
};

}  // namespace

const backend& configured_backend() {
  static const gpu_backend b;
  return b;
}

}  // namespace butterfly::detail
