// draw_rows and draw_topics on NumPy arrays (GPU arrays: device_arrays.hpp), in place; the
// GIL is released during the draw.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>

#include "arrays.hpp"
#include "bindings.hpp"
#include "butterfly/butterfly.hpp"
#include "device_arrays.hpp"

namespace butterfly::python {
namespace {

draw_options options_of(const std::string& method, std::uint64_t seed, std::uint32_t iteration,
                        int width, bool validate, std::uint64_t first_token) {
  draw_options o;
  o.method = parse_algorithm(method);
  o.seed = seed;
  o.iteration = iteration;
  o.width = width;
  o.validate = validate;
  o.first_token = first_token;
  return o;
}

py::object draw_rows_py(const py::object& weights, const std::string& method, std::uint64_t seed,
                        std::uint32_t iteration, int width, bool validate,
                        std::uint64_t first_token, const py::object& out) {
  if (is_device_array(weights))
    return draw_rows_device(weights,
                            options_of(method, seed, iteration, width, validate, first_token), out);
  const matrix w = input_matrix(weights, "weights");
  if (w.cols < 1)
    throw py::value_error("weights must have at least one column, got shape (" +
                          std::to_string(w.rows) + ", 0)");
  const draw_options o = options_of(method, seed, iteration, width, validate, first_token);
  auto result = output_int32(out, w.rows, "out");
  const span<std::int32_t> z = writable(result);
  {
    py::gil_scoped_release unlocked;
    draw_rows(w.data, static_cast<int>(w.cols), z, o);
  }
  return result;
}

py::object draw_topics_py(const py::object& theta, const py::object& phi,
                          const py::object& doc_offsets, const py::object& words,
                          const std::string& method, std::uint64_t seed, std::uint32_t iteration,
                          int width, bool validate, bool pack_warps, std::uint64_t first_token,
                          std::int64_t first_document, const py::object& out) {
  draw_options o = options_of(method, seed, iteration, width, validate, first_token);
  o.pack_warps = pack_warps;
  o.first_document = first_document;
  if (is_device_array(theta)) return draw_topics_device(theta, phi, doc_offsets, words, o, out);
  const matrix t = input_matrix(theta, "theta");
  const matrix p = input_matrix(phi, "phi");
  if (t.cols != p.cols)
    throw py::value_error("theta has " + std::to_string(t.cols) + " columns and phi " +
                          std::to_string(p.cols) + ": both must have K (one per topic)");
  const auto offsets = input_int64(doc_offsets, "doc_offsets");
  const auto w = input_int32(words, "words");
  auto result = output_int32(out, static_cast<py::ssize_t>(w.size()), "out");
  const span<std::int32_t> z = writable(result);
  {
    py::gil_scoped_release unlocked;
    draw_topics(t.data, p.data, static_cast<int>(t.cols), offsets, w, z, o);
  }
  return result;
}

}  // namespace

void add_draws(py::module_& m) {
  using namespace pybind11::literals;
  m.def("draw_rows", &draw_rows_py, "weights"_a, py::kw_only(), "method"_a = "butterfly",
        "seed"_a = 0, "iteration"_a = 0, "width"_a = 0, "validate"_a = true, "first_token"_a = 0,
        "out"_a = py::none(),
        "out[r] = k with probability proportional to weights[r, k] (like "
        "torch.multinomial(weights, 1)[:, 0]).\n"
        "weights: R x K float32, C-contiguous, read in place; returns int32 (-1 for a row of "
        "zeros), a pure\n"
        "function of (seed, iteration, first_token + r). method: basic, transposed, butterfly, "
        "warp_scan.");
  m.def("draw_topics", &draw_topics_py, "theta"_a, "phi"_a, "doc_offsets"_a, "words"_a,
        py::kw_only(), "method"_a = "butterfly", "seed"_a = 0, "iteration"_a = 0, "width"_a = 0,
        "validate"_a = true, "pack_warps"_a = true, "first_token"_a = 0, "first_document"_a = 0,
        "out"_a = py::none(),
        "z[t] = k with probability proportional to theta[m, k] * phi[words[t], k] for each token t "
        "of\n"
        "document m (CSR: document m owns tokens doc_offsets[m]:doc_offsets[m + 1]). theta M x K "
        "and phi\n"
        "V x K float32, doc_offsets int64, words int32, all C-contiguous and read in place; "
        "returns int32.");
  // The address draw_rows reads `weights` at, through the same checks: the tests compare it
  // with the array's own buffer to show that nothing is copied.
  m.def("_input_address", [](const py::object& a) {
    return reinterpret_cast<std::uintptr_t>(input_matrix(a, "weights").data.data());
  });
  m.attr("backend") = std::string(backend_name());
  m.attr("default_width") = default_width();
  m.attr("supported_widths") = supported_widths();
  m.def("backend_unavailable_reason", &backend_unavailable_reason);
  std::vector<std::string> names;
  for (algorithm a : all_algorithms) names.emplace_back(name(a));
  m.attr("algorithms") = py::tuple(py::cast(names));
}

}  // namespace butterfly::python
