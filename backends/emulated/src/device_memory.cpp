// The emulated device's memory (device_memory.hpp), and the runtime calls behind
// device_buffer (butterfly/cuda_hip/device_buffer.hpp) on it.
#include "butterfly/emulated/device_memory.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include "butterfly/cuda_hip/device_buffer.hpp"

namespace butterfly::emulated {
namespace {

// cudaMalloc's alignment: allocations end this close to their guard page.
constexpr std::size_t alignment = 256;
constexpr int leak_status = 70;

struct allocation {
  std::uint64_t number;
  std::size_t bytes;
  char* map;           // its pages, the guard page last
  std::size_t mapped;  // bytes mapped, the guard page included
  owner by;
};

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "butterfly emulated device: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

// What cudaMalloc's failure would say.
[[noreturn]] void out_of_memory(std::size_t bytes) {
  throw std::runtime_error("butterfly: emulated device Malloc of " + std::to_string(bytes) +
                           " bytes failed: out of memory");
}

std::string describe(const allocation& a) {
  return "allocation #" + std::to_string(a.number) + " (" + std::to_string(a.bytes) +
         " bytes, made by " + (a.by.id ? "executor '" + a.by.name + "'" : a.by.name) + ")";
}

void segv_handler(int, siginfo_t*, void*);
struct sigaction previous_segv {};  // what SIGSEGV did before the device started

class heap {
 public:
  heap() : page_(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE))) {
    struct sigaction sa {};
    sa.sa_sigaction = segv_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous_segv);
  }
  // At exit: nothing may be left.
  ~heap() {
    if (live_.empty()) return;
    for (const auto& [start, a] : live_)
      std::fprintf(stderr, "butterfly emulated device: leaked at exit: %s\n", describe(a).c_str());
    std::fflush(stderr);
    std::_Exit(leak_status);
  }

  void* allocate(const owner& o, std::size_t bytes) {
    if (bytes == 0) return nullptr;
    const std::size_t data = (bytes + alignment - 1) / alignment * alignment;
    if (data < bytes || data > (std::size_t{1} << 40))  // 1 TiB: more than any device has
      out_of_memory(bytes);
    const std::size_t pages = (data + page_ - 1) / page_ * page_;
    void* m = ::mmap(nullptr, pages + page_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) out_of_memory(bytes);
    char* map = static_cast<char*>(m);
    char* start = map + pages - data;
    std::memset(start, 0xff, bytes);  // uninitialized device memory is not zero
    std::lock_guard<std::mutex> lock(mutex_);
    const allocation a{++made_, bytes, map, pages + page_, o};
    live_.emplace(reinterpret_cast<std::uintptr_t>(start), a);
    protect(a, open_ > 0);
    ::mprotect(map + pages, page_, PROT_NONE);  // the guard page
    return start;
  }

  void release(const owner& o, void* p) {
    if (!p) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = live_.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == live_.end()) {
      const allocation* inside = find(p, 1);
      die("release of " + pointer(p) + ", which is " +
          (inside ? "inside " + describe(*inside) + ", not its start"
                  : "no live device allocation (host memory, or released already)") +
          "; released by " + (o.id ? "executor '" + o.name + "'" : o.name));
    }
    const allocation& a = it->second;
    if (a.by.id != o.id)
      die(describe(a) + " at " + pointer(p) + " released through " +
          (o.id ? "executor '" + o.name + "' at " + pointer(o.id) : o.name) + "; only " +
          (a.by.id ? "executor '" + a.by.name + "' at " + pointer(a.by.id) : a.by.name) +
          " may release it");
    ::munmap(a.map, a.mapped);
    live_.erase(it);
  }

  void copy(void* dst, const void* src, std::size_t bytes, bool to_device) {
    if (bytes == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const void* device = to_device ? dst : src;
    const void* host = to_device ? src : dst;
    const char* what = to_device ? "copy to the device" : "copy to the host";
    const allocation* a = find(device, bytes);
    if (!a)
      die(std::string(what) + " of " + std::to_string(bytes) + " bytes at " + pointer(device) +
          ": not within one live device allocation");
    if (const allocation* h = find(host, 1))
      die(std::string(what) + " of " + std::to_string(bytes) + " bytes: its host side " +
          pointer(host) + " is device memory, " + describe(*h));
    protect(*a, true);
    std::memcpy(dst, src, bytes);
    protect(*a, open_ > 0);
    ++copies_;
    copied_ += bytes;
  }

  void open() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (open_++ == 0)
      for (const auto& [start, a] : live_) protect(a, true);
  }
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--open_ == 0)
      for (const auto& [start, a] : live_) protect(a, false);
  }

  device_counters counters() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::uint64_t bytes = 0;
    for (const auto& [start, a] : live_) bytes += a.bytes;
    return {copies_, copied_, made_, static_cast<std::uint64_t>(live_.size()), bytes};
  }

  // For the SIGSEGV handler: what address p is, without waiting for the lock (the fault may
  // have come while it was held). Returns false when it cannot say.
  bool explain(const void* p, char* out, std::size_t size) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return false;
    const auto x = reinterpret_cast<std::uintptr_t>(p);
    for (const auto& [start, a] : live_) {
      const auto map = reinterpret_cast<std::uintptr_t>(a.map);
      if (x < map || x >= map + a.mapped) continue;
      const bool guard = x >= map + a.mapped - page_;
      if (guard)
        std::snprintf(out, size,
                      "butterfly emulated device: %s %p, %zu bytes past the end of allocation "
                      "#%llu (%zu bytes)\n",
                      open_ > 0 ? "a kernel read or wrote" : "host code read or wrote", p,
                      static_cast<std::size_t>(x - start - a.bytes) + 0,
                      static_cast<unsigned long long>(a.number), a.bytes);
      else
        std::snprintf(out, size,
                      "butterfly emulated device: host code read or wrote device memory outside a "
                      "launch: %p is "
                      "byte %lld of allocation #%llu (%zu bytes, made by %s%s%s)\n",
                      p, static_cast<long long>(x) - static_cast<long long>(start),
                      static_cast<unsigned long long>(a.number), a.bytes,
                      a.by.id ? "executor '" : "", a.by.name.c_str(), a.by.id ? "'" : "");
      return true;
    }
    return false;
  }

 private:
  static std::string pointer(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
  }
  // The live allocation holding [p, p + bytes), or null.
  const allocation* find(const void* p, std::size_t bytes) const {
    const auto x = reinterpret_cast<std::uintptr_t>(p);
    auto it = live_.upper_bound(x);
    if (it == live_.begin()) return nullptr;
    --it;
    const allocation& a = it->second;
    return x - it->first < a.bytes && bytes <= a.bytes - (x - it->first) ? &a : nullptr;
  }
  void protect(const allocation& a, bool open) const {
    ::mprotect(a.map, a.mapped - page_, open ? PROT_READ | PROT_WRITE : PROT_NONE);
  }

  const std::size_t page_;
  std::mutex mutex_;
  std::map<std::uintptr_t, allocation> live_;  // by start address
  int open_ = 0;                               // launches under way
  std::uint64_t made_ = 0, copies_ = 0, copied_ = 0;
};

// Started by the first call, which an executor's constructor makes: so it is destroyed (and
// checks for leaks) after every executor that was made after it.
heap& the_heap() {
  static heap h;
  return h;
}

void segv_handler(int sig, siginfo_t* info, void*) {
  char message[512];
  if (the_heap().explain(info->si_addr, message, sizeof message))
    static_cast<void>(::write(2, message, std::strlen(message)));
  // On return the faulting access runs again, now under the handler that was there before
  // (the default ends the process; Python's faulthandler prints the traceback first).
  sigaction(sig, &previous_segv, nullptr);
}

const owner runtime{nullptr, "the runtime (device_buffer)"};

}  // namespace

void* device_allocate(const owner& o, std::size_t bytes) { return the_heap().allocate(o, bytes); }
void device_release(const owner& o, void* p) noexcept { the_heap().release(o, p); }
void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) {
  the_heap().copy(device_dst, host_src, bytes, true);
}
void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) {
  the_heap().copy(host_dst, device_src, bytes, false);
}
device_counters counters() { return the_heap().counters(); }

launch::launch() { the_heap().open(); }
launch::~launch() { the_heap().close(); }

}  // namespace butterfly::emulated

// The runtime calls behind device_buffer, on the emulated device.
namespace butterfly::cuda_hip {

void* device_allocate(std::size_t bytes) {
  return emulated::device_allocate(emulated::runtime, bytes);
}
void device_free(void* p) noexcept { emulated::device_release(emulated::runtime, p); }
void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) {
  emulated::copy_to_device(device_dst, host_src, bytes);
}
void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) {
  emulated::copy_to_host(host_dst, device_src, bytes);
}
std::uint64_t copied_bytes() noexcept { return emulated::counters().copied_bytes; }

}  // namespace butterfly::cuda_hip
