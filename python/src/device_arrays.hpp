// Arrays in GPU memory, as torch CUDA tensors and CuPy arrays expose them through
// __cuda_array_interface__: in a build whose backend has device memory (CUDA, HIP, the
// emulated device) they are drawn in place, on the stream the array names
// (device_arrays_gpu.cpp); other builds refuse them with a TypeError that says so
// (device_arrays_host.cpp). DLPack (__dlpack__) is not read.
//
// butterfly.device_array(a) copies a NumPy array into the backend's device memory and
// exposes it the same way (to_host() copies it back): device arrays without torch or CuPy,
// and the only ones on the emulated device.
#pragma once

#include <pybind11/pybind11.h>

#include "butterfly/butterfly.hpp"

namespace butterfly::python {

bool is_device_array(const pybind11::object& o);

// butterfly.device_array (a TypeError naming the backend where it has no device memory).
void add_device_arrays(pybind11::module_& m);

// `out` must be a writable int32 device array of R (N) entries; it is returned.
pybind11::object draw_rows_device(const pybind11::object& weights, const draw_options& options,
                                  const pybind11::object& out);
pybind11::object draw_topics_device(const pybind11::object& theta, const pybind11::object& phi,
                                    const pybind11::object& doc_offsets,
                                    const pybind11::object& words, const draw_options& options,
                                    const pybind11::object& out);

}  // namespace butterfly::python
