// A build without device memory: a GPU array is refused, naming the build's backend.
#include <string>

#include "device_arrays.hpp"

namespace butterfly::python {
namespace py = pybind11;
namespace {

const char* build_hint =
    ": build the module with BACKEND=cuda, hip or emulated to draw it in place, or pass a host "
    "array";

[[noreturn]] void refuse(const char* name) {
  throw py::type_error(std::string(name) +
                       " is a GPU array (__cuda_array_interface__), and this build's backend is " +
                       std::string(backend_name()) + build_hint);
}

}  // namespace

bool is_device_array(const py::object& o) { return py::hasattr(o, "__cuda_array_interface__"); }

void add_device_arrays(py::module_& m) {
  m.def(
      "device_array",
      [](const py::object&) -> py::object {
        throw py::type_error("device_array: this build's backend is " +
                             std::string(backend_name()) + ", which has no device memory" +
                             build_hint);
      },
      py::arg("array"), "Not in this build: its backend has no device memory.");
}

py::object draw_rows_device(const py::object&, const draw_options&, const py::object&) {
  refuse("weights");
}

py::object draw_topics_device(const py::object&, const py::object&, const py::object&,
                              const py::object&, const draw_options&, const py::object&) {
  refuse("theta");
}

}  // namespace butterfly::python
