// The emulated device catches each class of device-memory bug a GPU would make of a program
// (device_memory.hpp): each is planted in a process of its own (device_plants.cpp), which must
// end the way the rule says, with a message naming the allocation. And the process that the
// exit crash killed (a packed draw on a device backend) now exits cleanly.
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "butterfly/emulated/device.hpp"
#include "butterfly/emulated/device_memory.hpp"
#include "process.hpp"

namespace {

namespace emulated = butterfly::emulated;

butterfly::testing::outcome plant(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("butterfly-plant-" + name);
  std::filesystem::create_directories(dir);
  const auto r = butterfly::testing::run(dir.string(), {name}, {}, BUTTERFLY_DEVICE_PLANTS);
  INFO("device_plants " << name << ": exit " << r.exit_code << ", signal " << r.signal
                        << "\nstdout: " << r.out << "\nstderr: " << r.err);
  std::filesystem::remove_all(dir);
  return r;
}

}  // namespace

TEST_CASE(
    "device-emulation: a process that drew packed on the device exits cleanly (the exit crash)",
    "[emulated]") {
  const auto r = plant("clean_exit");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("drew packed; exiting") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("device-emulation: a host read of device memory is caught", "[emulated]") {
  const auto r = plant("host_read");
  CHECK(r.signal == SIGSEGV);
  CHECK(r.err.find("host code read or wrote device memory outside a launch") != std::string::npos);
  CHECK(r.err.find("is byte 4 of allocation #") != std::string::npos);
  CHECK(r.out.find("read") == std::string::npos);
}

TEST_CASE("device-emulation: a kernel reading past an allocation's end is caught", "[emulated]") {
  const auto r = plant("kernel_overrun");
  CHECK(r.signal == SIGSEGV);
  CHECK(r.err.find("a kernel read or wrote") != std::string::npos);
  CHECK(r.err.find("0 bytes past the end of allocation #") != std::string::npos);
}

TEST_CASE("device-emulation: a release through the wrong executor is caught", "[emulated]") {
  const auto r = plant("wrong_executor");
  CHECK(r.signal == SIGABRT);
  CHECK(r.err.find("(4096 bytes, made by executor 'emulated') at ") != std::string::npos);
  CHECK(r.err.find("released through executor 'emulated' at ") != std::string::npos);
  CHECK(r.err.find("only executor 'emulated' at ") != std::string::npos);
}

TEST_CASE("device-emulation: a missing copy back is caught", "[emulated]") {
  const auto r = plant("missing_copy_back");
  CHECK(r.signal == SIGABRT);
  CHECK(r.err.find("an output of 400 bytes was staged in device memory and never copied back") !=
        std::string::npos);
}

TEST_CASE("device-emulation: a leak is caught at exit", "[emulated]") {
  const auto r = plant("leak");
  CHECK(r.exit_code == 70);
  CHECK(r.err.find("leaked at exit: allocation #") != std::string::npos);
  CHECK(r.err.find("(4000 bytes, made by the runtime (device_buffer))") != std::string::npos);
}

TEST_CASE("device-emulation: a copy past an allocation's end is caught", "[emulated]") {
  const auto r = plant("copy_past_end");
  CHECK(r.signal == SIGABRT);
  CHECK(r.err.find("copy to the device of 44 bytes") != std::string::npos);
  CHECK(r.err.find("not within one live device allocation") != std::string::npos);
}

TEST_CASE("device-emulation: device memory starts as 0xff, a launch reads it, copies are counted",
          "[emulated]") {
  const auto before = emulated::counters();
  emulated::device_buffer<std::int32_t> b(std::size_t{3});
  {
    const emulated::launch kernel;
    CHECK(b.data()[0] == -1);  // uninitialized device memory is not zero
    b.data()[1] = 5;
  }
  const std::vector<std::int32_t> host = b.to_host();
  CHECK(host == std::vector<std::int32_t>{-1, 5, -1});
  const auto after = emulated::counters();
  CHECK(after.copies == before.copies + 1);
  CHECK(after.copied_bytes == before.copied_bytes + 12);
  CHECK(after.live_allocations == before.live_allocations + 1);
}
