// Arrays in GPU memory, as torch CUDA tensors and CuPy arrays expose them through
// __cuda_array_interface__: in a CUDA or HIP build they are drawn in place, on the stream
// the array names (device_arrays_gpu.cpp); other builds refuse them with a TypeError that
// says so (device_arrays_host.cpp). DLPack (__dlpack__) is not read.
#pragma once

#include <pybind11/pybind11.h>

#include "butterfly/butterfly.hpp"

namespace butterfly::python {

bool is_device_array(const pybind11::object& o);

// `out` must be a writable int32 device array of R (N) entries; it is returned.
pybind11::object draw_rows_device(const pybind11::object& weights, const draw_options& options,
                                  const pybind11::object& out);
pybind11::object draw_topics_device(const pybind11::object& theta, const pybind11::object& phi,
                                    const pybind11::object& doc_offsets, const pybind11::object& words,
                                    const draw_options& options, const pybind11::object& out);

}  // namespace butterfly::python
