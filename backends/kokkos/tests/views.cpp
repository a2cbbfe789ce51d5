// butterfly::kokkos::draw_topics/draw_rows on every host execution space of the installed
// Kokkos, on the conformance suite's inputs, at every width, warp packing on and off: bit for
// bit the serial reference.
#include <catch2/catch.hpp>

#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "butterfly/kokkos/draw.hpp"
#include "cases.hpp"

namespace {

template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> to_view(const std::vector<T>& v) {
  Kokkos::View<T*, typename Space::memory_space> d("butterfly::test", v.size());
  Kokkos::deep_copy(
      d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}

template <class Space>
Kokkos::View<float**, Kokkos::LayoutRight, typename Space::memory_space> to_matrix(
    const std::vector<float>& v, int K) {
  Kokkos::View<float**, Kokkos::LayoutRight, typename Space::memory_space> d("butterfly::test",
                                                                             v.size() / K, K);
  Kokkos::deep_copy(
      d,
      Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
          v.data(), v.size() / K, K));
  return d;
}

template <class Space>
std::vector<std::int32_t> draw_on(const Space& space, const butterfly::conformance::case_inputs& c,
                                  const butterfly::draw_options& o) {
  Kokkos::View<std::int32_t*, typename Space::memory_space> z("z", c.outputs());
  Kokkos::deep_copy(z, -2);
  if (c.rows) {
    butterfly::kokkos::draw_rows(space, to_matrix<Space>(c.theta, c.K), z, o);
  } else {
    const Kokkos::View<const std::int32_t*, typename Space::memory_space> words =
        to_view<Space>(c.words);
    butterfly::kokkos::draw_topics(space, to_matrix<Space>(c.theta, c.K),
                                   to_matrix<Space>(c.phi, c.K), to_view<Space>(c.offsets), words,
                                   z, o);
  }
  space.fence();
  std::vector<std::int32_t> out(c.outputs());
  Kokkos::deep_copy(Kokkos::View<std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        out.data(), out.size()),
                    z);
  return out;
}

}  // namespace

TEMPLATE_TEST_CASE(
    "kokkos View API equals the serial reference on every host space, packing on and off",
    "[kokkos]"
#if defined(KOKKOS_ENABLE_SERIAL)
    ,
    Kokkos::Serial
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    ,
    Kokkos::OpenMP
#endif
#if defined(KOKKOS_ENABLE_THREADS)
    ,
    Kokkos::Threads
#endif
) {
  const TestType space;
  INFO(TestType::name() << " with concurrency " << space.concurrency());
  const auto widths = butterfly::kokkos::supported_widths<TestType>();
  REQUIRE(widths == butterfly::reference::supported_widths());
  for (const auto& c : butterfly::conformance::all_cases())
    for (auto method : butterfly::all_algorithms)
      for (int width : widths) {
        const auto want = butterfly::conformance::run_reference(c, method, width);
        butterfly::draw_options o;
        o.method = method;
        o.seed = butterfly::conformance::draw_seed;
        o.iteration = butterfly::conformance::draw_iteration;
        o.width = width;
        for (bool pack : {true, false}) {
          o.pack_warps = pack;
          INFO("case " << c.name << ", " << butterfly::name(method) << ", width " << width
                       << ", pack_warps " << pack);
          CHECK(draw_on(space, c, o) == want);
        }
      }
}

TEST_CASE("kokkos View API rejects bad Views with the argument named", "[kokkos]") {
  using space = Kokkos::DefaultHostExecutionSpace;
  const auto c = butterfly::conformance::make_products("small", 9, 5, 7, 6, 4);
  const auto theta = to_matrix<space>(c.theta, c.K);
  const auto phi = to_matrix<space>(c.phi, c.K);
  const auto offsets = to_view<space>(c.offsets);
  const auto words = to_view<space>(c.words);
  Kokkos::View<std::int32_t*> z("z", c.words.size());
  const space s;

  // A column slice of a LayoutRight matrix is strided.
  const auto strided = Kokkos::subview(theta, Kokkos::ALL, Kokkos::make_pair(0, c.K - 1));
  REQUIRE_FALSE(strided.span_is_contiguous());
  CHECK_THROWS_WITH(butterfly::kokkos::draw_topics(s, strided, phi, offsets, words, z),
                    Catch::Contains("theta must be a contiguous View"));

  const auto narrow_phi = to_matrix<space>(std::vector<float>(7 * (c.K + 1), 1.0f), c.K + 1);
  CHECK_THROWS_WITH(butterfly::kokkos::draw_topics(s, theta, narrow_phi, offsets, words, z),
                    Catch::Contains("phi has 7 columns"));

  Kokkos::View<std::int32_t*> short_z("z", c.words.size() - 1);
  CHECK_THROWS_WITH(butterfly::kokkos::draw_topics(s, theta, phi, offsets, words, short_z),
                    Catch::Contains("z must have one entry per word"));

  auto bad_words = to_view<space>(c.words);
  bad_words(0) = 7;  // V = 7
  CHECK_THROWS_WITH(butterfly::kokkos::draw_topics(s, theta, phi, offsets, bad_words, z),
                    Catch::Contains("words[0] = 7"));

  butterfly::draw_options o;
  o.width = 128;
  CHECK_THROWS_WITH(butterfly::kokkos::draw_topics(s, theta, phi, offsets, words, z, o),
                    Catch::Contains("width 128 is not supported"));

  auto negative = to_matrix<space>(c.theta, c.K);
  negative(1, 2) = -1.0f;
  o.width = 0;
  o.validate = true;
  CHECK_THROWS_WITH(butterfly::kokkos::draw_topics(s, negative, phi, offsets, words, z, o),
                    Catch::Contains("theta[1,2] = -1 is negative"));
}
