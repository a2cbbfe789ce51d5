// NumPy arrays, and objects NumPy views without copying (CPU torch tensors through
// __array__, buffers), as butterfly spans. Nothing is ever copied or converted: a wrong dtype is a
// TypeError and a wrong shape or layout a ValueError naming the argument, because a silent
// conversion would copy the whole array on every call of a caller's hot loop.
#pragma once

#include <pybind11/numpy.h>

#include <cstdint>

#include "butterfly/span.hpp"

namespace butterfly::python {
namespace py = pybind11;

// A 2-D C-contiguous float32 array.
struct matrix {
  span<const float> data;
  py::ssize_t rows = 0, cols = 0;
};
matrix input_matrix(const py::object& a, const char* name);

// 1-D C-contiguous arrays of the exact dtype. The spans point into the object's buffer:
// the caller keeps the object alive.
span<const std::int64_t> input_int64(const py::object& a, const char* name);
span<const std::int32_t> input_int32(const py::object& a, const char* name);

// `out` if given (1-D, int32, C-contiguous, writable, n entries), else a new array.
py::array_t<std::int32_t> output_int32(const py::object& out, py::ssize_t n, const char* name);
span<std::int32_t> writable(py::array_t<std::int32_t>& a);

}  // namespace butterfly::python
