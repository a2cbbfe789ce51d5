// The parts of the extension module butterfly._butterfly, each added by its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace butterfly::python {

void add_draws(pybind11::module_& m);    // draw_rows, draw_topics, the backend's description
void add_lda(pybind11::module_& m);      // corpus readers and the LDA sampler for butterfly.LDA
void add_threads(pybind11::module_& m);  // the host thread count, where the backend has one
void add_device_arrays(pybind11::module_& m);  // device_array (device_arrays.hpp)

}  // namespace butterfly::python
