// BACKEND=serial: the configured backend is the reference itself.
#include "butterfly/detail/backend.hpp"

namespace butterfly::detail {

const backend& configured_backend() { return reference_backend(); }

}  // namespace butterfly::detail
