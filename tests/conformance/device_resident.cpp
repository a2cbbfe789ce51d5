// The device-resident API (butterfly::cuda:: / butterfly::hip:: with device spans) runs the
// same entry path as the host spans: every option honoured (warp packing on and off, both
// forms), results equal to the serial reference, and the checks run on host copies.
#include <catch2/catch.hpp>

// The backend names its device API (backends/CMakeLists.txt: BUTTERFLY_BACKEND_DEVICE_API).
#include BUTTERFLY_DEVICE_HEADER
namespace device = butterfly::BUTTERFLY_DEVICE_NAMESPACE;

#include "cases.hpp"
#include "check.hpp"

using namespace butterfly;
using namespace butterfly::conformance;

TEMPLATE_TEST_CASE("conformance: device-resident draws equal the reference, packing on and off",
                   "[conformance][device]", Basic, Transposed, Butterfly, WarpScan) {
  const int width = default_width();
  // The goldens' cases and the awkward ones (zeros, all-zero rows, overflow, underflow,
  // subnormal, empty and long documents, K = 1, 1024, 4097).
  auto cases = all_cases();
  for (auto& c : awkward_cases()) cases.push_back(std::move(c));
  for (const auto& c : cases)
    for (bool pack : {true, false}) {
      draw_options o = case_options(TestType::value, width);
      o.pack_warps = pack;
      const device::device_buffer<float> theta(c.theta);
      device::device_buffer<std::int32_t> z(c.outputs());
      if (c.rows) {
        device::draw_rows(theta.view(), c.K, z.view(), o);
      } else {
        const device::device_buffer<float> phi(c.phi);
        const device::device_buffer<std::int64_t> offsets(c.offsets);
        const device::device_buffer<std::int32_t> words(c.words);
        device::draw_topics(theta.view(), phi.view(), c.K, offsets.view(), words.view(), z.view(),
                            o);
      }
      require_equal(z.to_host(), run_reference(c, TestType::value, width),
                    "device-resident " + c.name + (pack ? " packed" : " unpacked"));
    }
}

TEST_CASE("conformance: device-resident draws check their arguments on host copies",
          "[conformance][device]") {
  const auto c = make_products("small", 9, 5, 7, 6, 4);
  const device::device_buffer<float> theta(c.theta), phi(c.phi);
  const device::device_buffer<std::int64_t> offsets(c.offsets);
  auto bad_words = c.words;
  bad_words[0] = 7;  // V = 7
  const device::device_buffer<std::int32_t> words(bad_words);
  device::device_buffer<std::int32_t> z(c.words.size());
  CHECK_THROWS_WITH(
      device::draw_topics(theta.view(), phi.view(), c.K, offsets.view(), words.view(), z.view()),
      Catch::Contains("words[0] = 7"));
  auto negative = c.theta;
  negative[2] = -1.0f;
  const device::device_buffer<float> negative_theta(negative);
  const device::device_buffer<std::int32_t> good_words(c.words);
  draw_options o;
  o.validate = true;
  CHECK_THROWS_WITH(device::draw_topics(negative_theta.view(), phi.view(), c.K, offsets.view(),
                                        good_words.view(), z.view(), o),
                    Catch::Contains("theta[0,2] = -1 is negative"));
}

TEMPLATE_TEST_CASE(
    "conformance: device-resident slices drawn with first_token equal one whole draw",
    "[conformance][device]", Basic, Butterfly) {
  const auto c = make_products("slices", 11, 37, 50, 19, 40);
  const draw_options whole_options = case_options(TestType::value, default_width());
  const device::device_buffer<float> theta(c.theta), phi(c.phi);
  const device::device_buffer<std::int64_t> offsets(c.offsets);
  const device::device_buffer<std::int32_t> words(c.words);
  device::device_buffer<std::int32_t> z(c.words.size());
  device::draw_topics(theta.view(), phi.view(), c.K, offsets.view(), words.view(), z.view(),
                      whole_options);
  const auto whole = z.to_host();
  // Documents [a, b): their theta rows, words and offsets rebased to 0, numbered globally.
  for (const auto& [a, b] : {std::pair{0, 5}, std::pair{5, 36}, std::pair{36, 37}}) {
    const auto t0 = c.offsets[a], t1 = c.offsets[b];
    std::vector<std::int64_t> slice_offsets;
    for (int m = a; m <= b; ++m) slice_offsets.push_back(c.offsets[m] - t0);
    const device::device_buffer<float> slice_theta(std::vector<float>(
        c.theta.begin() + std::int64_t{a} * c.K, c.theta.begin() + std::int64_t{b} * c.K));
    const device::device_buffer<std::int64_t> d_offsets(slice_offsets);
    const device::device_buffer<std::int32_t> slice_words(
        std::vector<std::int32_t>(c.words.begin() + t0, c.words.begin() + t1));
    device::device_buffer<std::int32_t> slice_z(static_cast<std::size_t>(t1 - t0));
    draw_options o = whole_options;
    o.first_token = static_cast<std::uint64_t>(t0);
    o.first_document = a;
    device::draw_topics(slice_theta.view(), phi.view(), c.K, d_offsets.view(), slice_words.view(),
                        slice_z.view(), o);
    require_equal(slice_z.to_host(),
                  std::vector<std::int32_t>(whole.begin() + t0, whole.begin() + t1),
                  "documents [" + std::to_string(a) + ", " + std::to_string(b) + ")");
  }
}

TEMPLATE_TEST_CASE(
    "conformance: a prepared device draw equals the reference and copies nothing per call",
    "[conformance][device]", Basic, Butterfly, WarpScan) {
  const int V = 90;
  const auto c = make_products("prepared", 13, 70, V, 33, 60);
  const device::device_buffer<float> theta(c.theta), phi(c.phi);
  const device::device_buffer<std::int64_t> offsets(c.offsets);
  const device::device_buffer<std::int32_t> words(c.words);
  device::device_buffer<std::int32_t> z(c.words.size());
  draw_options o = case_options(TestType::value, default_width());
  const device::topic_draw draw(c.offsets, c.words, c.K, V, o);
  for (const std::uint32_t iteration : {1u, 2u}) {
    const std::uint64_t copied = cuda_hip::copied_bytes();
    draw(theta.view(), phi.view(), offsets.view(), words.view(), z.view(), iteration);
    CHECK(cuda_hip::copied_bytes() == copied);
    o.iteration = iteration;
    std::vector<std::int32_t> want(c.words.size());
    reference::draw_topics(c.theta, c.phi, c.K, c.offsets, c.words, want, o);
    require_equal(z.to_host(), want, "prepared draw, iteration " + std::to_string(iteration));
  }
  CHECK_THROWS_WITH(
      draw(theta.view(), theta.view(), offsets.view(), words.view(), z.view(), 3),
      Catch::Contains("phi has " + std::to_string(c.theta.size()) +
                      " elements; the prepared draw has " + std::to_string(c.phi.size())));
}

TEST_CASE("conformance: a device allocation that fails names the runtime call",
          "[conformance][device]") {
  CHECK_THROWS_WITH(device::device_buffer<float>(std::size_t{1} << 60), Catch::Contains("Malloc"));
}
