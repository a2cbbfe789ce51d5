// The emulated device's global memory: the CUDA/HIP path's memory rules, enforced on the host
// so that CI breaks where a GPU would, before a GPU ever runs the code.
//   - Device memory is a space of its own: every allocation is its own mapping, kept
//     PROT_NONE (neither readable nor writable) except while a kernel runs (a launch) or a
//     copy reads or writes it. Host code that touches it dies with SIGSEGV, and the message
//     names the allocation and the byte (a GPU would hand the host garbage or fault).
//   - Each allocation ends at a guard page, so a kernel that reads or writes past its end
//     dies too (what compute-sanitizer's memcheck reports), and its bytes start as 0xff
//     (NaN as floats, -1 as integers), not zero (what initcheck reports).
//   - An allocation is released only through the executor that made it (device_buffer's
//     through the runtime, device_free); any other release aborts, naming the allocation.
//   - Copies must go between host memory and one device allocation, whole; each is counted.
//   - At exit every allocation must have been released; otherwise the process prints each
//     leaked one and exits with status 70.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace butterfly::emulated {

// Who owns an allocation: an executor (its address, for the check) or the runtime.
struct owner {
  const void* id;    // null: the runtime (device_buffer)
  std::string name;  // for the messages
};

void* device_allocate(const owner& o, std::size_t bytes);
void device_release(const owner& o, void* p) noexcept;
void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes);
void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes);

struct device_counters {
  std::uint64_t copies, copied_bytes, allocations, live_allocations, live_bytes;
};
device_counters counters();

// A kernel launch: device memory readable and writable by the calling code while it lives.
// Launches may nest; the memory closes again when the outermost one ends.
class launch {
 public:
  launch();
  ~launch();
  launch(const launch&) = delete;
  launch& operator=(const launch&) = delete;
};

}  // namespace butterfly::emulated
