#include "arrays.hpp"

#include <string>

namespace butterfly::python {
namespace {

std::string dtype_name(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

template <class T>
void require_dtype(const py::array& a, const char* name, const char* wanted,
                   const char* numpy_type) {
  if (!py::isinstance<py::array_t<T>>(a))
    throw py::type_error(std::string(name) + " must be a " + wanted + " array, got " +
                         dtype_name(a) +
                         " (convert once, outside the loop: numpy.ascontiguousarray(" + name +
                         ", dtype=numpy." + numpy_type + "))");
}

void require_layout(const py::array& a, const char* name, py::ssize_t ndim) {
  if (a.ndim() != ndim)
    throw py::value_error(std::string(name) + " must be " + std::to_string(ndim) + "-D, got " +
                          std::to_string(a.ndim()) + "-D");
  if (!(a.flags() & py::array::c_style))
    throw py::value_error(
        std::string(name) +
        " must be C-contiguous (it is a strided view or Fortran-ordered; butterfly reads it in "
        "place and never copies: pass numpy.ascontiguousarray(" +
        name + "))");
}

// The object as an ndarray: itself, or NumPy's view of its memory (a CPU torch tensor's
// __array__). Where NumPy would have to build a new array (a list), the object is refused:
// the span must point into memory the caller's object keeps alive, and no copy is made.
py::array as_array(const py::object& o, const char* name, const char* numpy_type) {
  py::array a = py::array::ensure(o);
  if (!a || (a.ptr() != o.ptr() && a.owndata()))
    throw py::type_error(std::string(name) +
                         " must be a numpy array (or an object NumPy views in place, such as a "
                         "CPU torch tensor), got " +
                         py::str(py::type::of(o)).cast<std::string>() +
                         ", which would be copied: pass numpy.ascontiguousarray(" + name +
                         ", dtype=numpy." + numpy_type + ") once");
  return a;
}

template <class T>
span<const T> vector_of(const py::object& o, const char* name, const char* wanted,
                        const char* numpy_type) {
  const py::array a = as_array(o, name, numpy_type);
  require_dtype<T>(a, name, wanted, numpy_type);
  require_layout(a, name, 1);
  return {static_cast<const T*>(a.data()), static_cast<std::size_t>(a.shape(0))};
}

}  // namespace

matrix input_matrix(const py::object& o, const char* name) {
  const py::array a = as_array(o, name, "float32");
  require_dtype<float>(a, name, "float32", "float32");
  require_layout(a, name, 2);
  return {{static_cast<const float*>(a.data()), static_cast<std::size_t>(a.size())},
          a.shape(0),
          a.shape(1)};
}

span<const std::int64_t> input_int64(const py::object& a, const char* name) {
  return vector_of<std::int64_t>(a, name, "int64", "int64");
}

span<const std::int32_t> input_int32(const py::object& a, const char* name) {
  return vector_of<std::int32_t>(a, name, "int32", "int32");
}

py::array_t<std::int32_t> output_int32(const py::object& out, py::ssize_t n, const char* name) {
  if (out.is_none()) return py::array_t<std::int32_t>(n);
  if (!py::isinstance<py::array>(out))
    throw py::type_error(std::string(name) + " must be a numpy array or None");
  const auto a = py::reinterpret_borrow<py::array>(out);
  require_dtype<std::int32_t>(a, name, "int32", "int32");
  require_layout(a, name, 1);
  if (a.shape(0) != n)
    throw py::value_error(std::string(name) + " has " + std::to_string(a.shape(0)) +
                          " entries, needs " + std::to_string(n));
  if (!a.writeable()) throw py::value_error(std::string(name) + " is read-only");
  return py::reinterpret_borrow<py::array_t<std::int32_t>>(out);
}

span<std::int32_t> writable(py::array_t<std::int32_t>& a) {
  return {a.mutable_data(), static_cast<std::size_t>(a.size())};
}

}  // namespace butterfly::python
