// A build without device memory: a GPU array is refused, naming the build's backend.
#include <string>

#include "device_arrays.hpp"

namespace butterfly::python {
namespace py = pybind11;
namespace {

[[noreturn]] void refuse(const char* name) {
  throw py::type_error(std::string(name) + " is a GPU array (__cuda_array_interface__), and this build's backend is " +
                       std::string(backend_name()) + ": build the module with BACKEND=cuda or hip to draw it in "
                       "place, or pass a host array");
}

}  // namespace

bool is_device_array(const py::object& o) { return py::hasattr(o, "__cuda_array_interface__"); }

py::object draw_rows_device(const py::object&, const draw_options&, const py::object&) { refuse("weights"); }

py::object draw_topics_device(const py::object&, const py::object&, const py::object&, const py::object&,
                              const draw_options&, const py::object&) {
  refuse("theta");
}

}  // namespace butterfly::python
