// butterfly._butterfly: the C++ library seen from Python. The public names are re-exported
// by python/butterfly/__init__.py.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "butterfly/io/error.hpp"

PYBIND11_MODULE(_butterfly, m) {
  m.doc() = "butterfly: draws from many discrete distributions at once (C++ extension)";
  m.attr("__version__") = BUTTERFLY_VERSION;
  // std::invalid_argument already becomes ValueError (pybind11); a malformed corpus file
  // ("PATH:LINE: ...") is bad input too, not an internal error.
  pybind11::register_exception<butterfly::io::input_error>(m, "InputError", PyExc_ValueError);
  butterfly::python::add_draws(m);
  butterfly::python::add_lda(m);
  butterfly::python::add_threads(m);
  butterfly::python::add_device_arrays(m);
}
