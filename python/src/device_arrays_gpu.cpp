// Builds with device memory (CUDA, HIP, the emulated device): __cuda_array_interface__ arrays
// (version 2 or 3) drawn in place with the backend's device-resident API, on the stream the
// first array names (version 3's "stream": 1 and 2 are CUDA's legacy and per-thread default
// streams, absent = the default stream); and butterfly.device_array. Run on the emulated
// device (tests/python/test_device.py); compile-checked for CUDA and HIP.
#include <pybind11/numpy.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "device_arrays.hpp"

// The backend names its device API (backends/CMakeLists.txt: BUTTERFLY_BACKEND_DEVICE_API).
#include BUTTERFLY_DEVICE_HEADER
namespace gpu = butterfly::BUTTERFLY_DEVICE_NAMESPACE;

namespace butterfly::python {
namespace py = pybind11;
namespace {

struct device_array {
  std::uintptr_t data = 0;
  std::vector<py::ssize_t> shape;
  gpu::stream_t stream = nullptr;
  std::size_t size() const {
    std::size_t n = 1;
    for (py::ssize_t s : shape) n *= static_cast<std::size_t>(s);
    return n;
  }
};

// The interface of `o`, checked as the host arrays are: exact dtype (typestr), ndim,
// C-contiguous, writable where written.
device_array interface_of(const py::object& o, const char* name, const char* typestr,
                          std::size_t item, std::size_t ndim, bool written) {
  if (!py::hasattr(o, "__cuda_array_interface__"))
    throw py::type_error(std::string(name) +
                         " must be a GPU array like the others (__cuda_array_interface__)");
  const py::dict d = o.attr("__cuda_array_interface__");
  const auto type = d["typestr"].cast<std::string>();
  if (type != typestr)
    throw py::type_error(std::string(name) + " must have typestr " + typestr + ", got " + type +
                         " (convert it once, outside the loop)");
  device_array a;
  for (const auto s : d["shape"].cast<py::tuple>()) a.shape.push_back(s.cast<py::ssize_t>());
  if (a.shape.size() != ndim)
    throw py::value_error(std::string(name) + " must be " + std::to_string(ndim) + "-D, got " +
                          std::to_string(a.shape.size()) + "-D");
  if (d.contains("strides") && !d["strides"].is_none()) {
    const auto strides = d["strides"].cast<std::vector<py::ssize_t>>();
    py::ssize_t expected = static_cast<py::ssize_t>(item);
    for (std::size_t i = ndim; i-- > 0;) {
      if (a.shape[i] > 1 && strides[i] != expected)
        throw py::value_error(std::string(name) +
                              " must be C-contiguous (butterfly reads it in place)");
      expected *= a.shape[i];
    }
  }
  const auto data = d["data"].cast<py::tuple>();
  a.data = data[0].cast<std::uintptr_t>();
  if (written && data[1].cast<bool>()) throw py::value_error(std::string(name) + " is read-only");
  if (d.contains("stream") && !d["stream"].is_none())
    a.stream = reinterpret_cast<gpu::stream_t>(d["stream"].cast<std::uintptr_t>());
  return a;
}

template <class T>
span<T> view(const device_array& a) {
  return {reinterpret_cast<T*>(a.data), a.size()};
}

device_array output(const py::object& out, std::size_t n) {
  if (out.is_none())
    throw py::type_error("out: a GPU input needs out=, an int32 GPU array of " + std::to_string(n) +
                         " entries (e.g. torch.empty(n, dtype=torch.int32, device='cuda'))");
  device_array a = interface_of(out, "out", "<i4", 4, 1, true);
  if (a.size() != n)
    throw py::value_error("out has " + std::to_string(a.size()) + " entries, needs " +
                          std::to_string(n));
  return a;
}

// butterfly.device_array: a C-contiguous NumPy array's bytes in device memory, exposed through
// __cuda_array_interface__ like a torch CUDA tensor.
class device_copy {
 public:
  explicit device_copy(const py::array& a)
      : typestr_(a.dtype().attr("str").cast<std::string>()),
        dtype_(a.dtype()),
        shape_(a.shape(), a.shape() + a.ndim()),
        bytes_(static_cast<std::size_t>(a.nbytes())) {
    if (!(a.flags() & py::array::c_style))
      throw py::value_error(
          "device_array: the array must be C-contiguous (np.ascontiguousarray(a))");
    if (a.nbytes() > 0) {
      const auto* p = static_cast<const std::uint8_t*>(a.data());
      bytes_.copy_from(span<const std::uint8_t>(p, bytes_.size()));
    }
  }
  py::dict interface() const {
    py::dict d;
    py::tuple shape(shape_.size());
    for (std::size_t i = 0; i < shape_.size(); ++i) shape[i] = shape_[i];
    d["shape"] = shape;
    d["typestr"] = typestr_;
    d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(bytes_.data()), false);
    d["strides"] = py::none();
    d["version"] = 3;
    return d;
  }
  py::array to_host() const {
    py::array out(dtype_, shape_);
    if (bytes_.size() > 0)
      bytes_.copy_to(
          span<std::uint8_t>(static_cast<std::uint8_t*>(out.mutable_data()), bytes_.size()));
    return out;
  }

 private:
  std::string typestr_;
  py::dtype dtype_;
  std::vector<py::ssize_t> shape_;
  gpu::device_buffer<std::uint8_t> bytes_;
};

}  // namespace

bool is_device_array(const py::object& o) { return py::hasattr(o, "__cuda_array_interface__"); }

void add_device_arrays(py::module_& m) {
  py::class_<device_copy>(m, "device_array",
                          "A NumPy array copied into the backend's device memory, exposed through "
                          "__cuda_array_interface__ (drawn in place like a torch CUDA tensor); "
                          "to_host() copies it back.")
      .def(py::init<const py::array&>(), py::arg("array"))
      .def_property_readonly("__cuda_array_interface__", &device_copy::interface)
      .def("to_host", &device_copy::to_host, "A NumPy copy of the device array.");
}

py::object draw_rows_device(const py::object& weights, const draw_options& options,
                            const py::object& out) {
  const device_array w = interface_of(weights, "weights", "<f4", 4, 2, false);
  const device_array z = output(out, static_cast<std::size_t>(w.shape[0]));
  {
    py::gil_scoped_release unlocked;
    gpu::draw_rows(view<const float>(w), static_cast<int>(w.shape[1]), view<std::int32_t>(z),
                   options, w.stream);
  }
  return out;
}

py::object draw_topics_device(const py::object& theta, const py::object& phi,
                              const py::object& doc_offsets, const py::object& words,
                              const draw_options& options, const py::object& out) {
  const device_array t = interface_of(theta, "theta", "<f4", 4, 2, false);
  const device_array p = interface_of(phi, "phi", "<f4", 4, 2, false);
  if (t.shape[1] != p.shape[1])
    throw py::value_error("theta has " + std::to_string(t.shape[1]) + " columns and phi " +
                          std::to_string(p.shape[1]) + ": both must have K (one per topic)");
  const device_array o = interface_of(doc_offsets, "doc_offsets", "<i8", 8, 1, false);
  const device_array w = interface_of(words, "words", "<i4", 4, 1, false);
  const device_array z = output(out, w.size());
  {
    py::gil_scoped_release unlocked;
    gpu::draw_topics(view<const float>(t), view<const float>(p), static_cast<int>(t.shape[1]),
                     view<const std::int64_t>(o), view<const std::int32_t>(w),
                     view<std::int32_t>(z), options, t.stream);
  }
  return out;
}

}  // namespace butterfly::python
