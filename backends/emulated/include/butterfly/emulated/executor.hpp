// Executors of the emulated device besides the configured one (detail::configured_executor()),
// as a second context on one GPU: each owns what it allocates, and the device checks that
// only it releases that.
#pragma once

#include <memory>

#include "butterfly/detail/executor.hpp"

namespace butterfly::emulated {

std::unique_ptr<const detail::executor> make_executor();

}  // namespace butterfly::emulated
