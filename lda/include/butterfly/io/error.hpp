// The one exception type for malformed input files: the message always starts with the
// file (and, when the problem is on a line, "PATH:LINE:"), so a user can go straight to it.
#pragma once

#include <stdexcept>

namespace butterfly::io {

class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace butterfly::io
