// device_plants PLANT: one bug of a class the emulated device must catch, planted in a process
// of its own (device_rules.cpp runs it and reads how it ended), or with `clean_exit` the
// process the exit crash killed, which must now end well.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/kernel_array.hpp"
#include "butterfly/emulated/device.hpp"
#include "butterfly/emulated/device_memory.hpp"
#include "butterfly/emulated/executor.hpp"

namespace {

using butterfly::detail::configured_executor;
namespace emulated = butterfly::emulated;

// A packed product-form draw through the public host-span API: the executor uploads and
// caches the warp plan, which it releases when it is destroyed at exit.
int clean_exit() {
  const int K = 5;
  const std::vector<std::int64_t> offsets{0, 3, 3, 10};
  const std::vector<std::int32_t> words{0, 1, 2, 3, 0, 1, 2, 3, 0, 1};
  const std::vector<float> theta(3 * K, 1.0f), phi(4 * K, 0.5f);
  std::vector<std::int32_t> z(words.size(), -7);
  butterfly::draw_options o;
  o.pack_warps = true;
  butterfly::draw_topics(theta, phi, K, offsets, words, z, o);
  for (const std::int32_t k : z)
    if (k < 0 || k >= K) return 2;
  std::puts("drew packed; exiting");
  return 0;
}

int host_read() {
  const emulated::device_buffer<float> b(std::vector<float>{1, 2, 3});
  volatile const float* p = b.data();
  std::printf("read %g\n", static_cast<double>(p[1]));  // dies here
  return 0;
}

int kernel_overrun() {
  emulated::device_buffer<std::int32_t> b(std::size_t{64});
  const emulated::launch kernel;
  volatile std::int32_t* p = b.data();
  p[64] = 1;  // one past the end: dies here
  return 0;
}

int wrong_executor() {
  const auto other = emulated::make_executor();
  void* p = configured_executor().allocate(4096);
  other->release(p);  // aborts here
  return 0;
}

int missing_copy_back() {
  std::vector<std::int32_t> host(100, 0);
  {
    // A kernel's output staged for host memory, written and never downloaded.
    const butterfly::detail::mirror<std::int32_t> out(
        configured_executor(), host.data(), host.size(), butterfly::detail::memory::host, false);
    const std::vector<std::int32_t> written(host.size(), 7);
    configured_executor().copy_to_device(out.data(), written.data(),
                                         written.size() * sizeof(std::int32_t));
  }  // aborts here
  return 0;
}

int leak() {
  new emulated::device_buffer<float>(std::size_t{1000});  // never freed: reported at exit
  return 0;
}

int copy_past_end() {
  emulated::device_buffer<float> b(std::size_t{10});
  const std::vector<float> host(11, 1.0f);
  emulated::copy_to_device(b.data(), host.data(), host.size() * sizeof(float));  // aborts here
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string plant = argc == 2 ? argv[1] : "";
  if (plant == "clean_exit") return clean_exit();
  if (plant == "host_read") return host_read();
  if (plant == "kernel_overrun") return kernel_overrun();
  if (plant == "wrong_executor") return wrong_executor();
  if (plant == "missing_copy_back") return missing_copy_back();
  if (plant == "leak") return leak();
  if (plant == "copy_past_end") return copy_past_end();
  std::fprintf(
      stderr,
      "usage: device_plants clean_exit|host_read|kernel_overrun|wrong_executor|missing_copy_back|"
      "leak|copy_past_end\n");
  return 64;
}
