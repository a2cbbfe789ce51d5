#include "butterfly/detail/backend.hpp"

#include <stdexcept>

namespace butterfly::detail {

void backend::copy_to_host(void*, const void*, std::size_t) const {
  throw std::logic_error("butterfly: the " + std::string(name()) +
                         " backend has no device memory to copy from");
}

void require_available(const backend& b, const char* fn) {
  const std::string reason = b.unavailable_reason();
  if (!reason.empty()) throw std::runtime_error(std::string("butterfly::") + fn + ": " + reason);
}

}  // namespace butterfly::detail
