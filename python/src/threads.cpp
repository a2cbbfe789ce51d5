// butterfly.LDA(threads=N): the configured executor's thread count for the calling thread
// (where the draws and the sampler's host loops run). Setting OMP_NUM_THREADS from Python
// would be too late once any library in the process has started the OpenMP runtime. The
// thread count never changes a result.
#include <string>

#include "bindings.hpp"
#include "butterfly/detail/executor.hpp"

namespace butterfly::python {

void add_threads(pybind11::module_& m) {
  // Returns whether this backend uses host threads that the count applies to.
  m.def("_set_threads", [](int threads) {
    if (threads < 1)
      throw pybind11::value_error("threads must be at least 1, got " + std::to_string(threads));
    return detail::configured_executor().set_threads(threads);
  });
}

}  // namespace butterfly::python
