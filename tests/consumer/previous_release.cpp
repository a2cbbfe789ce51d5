// A program written against 0.1, which named the default width native_width(): it still
// builds (with a deprecation warning) and gets default_width().
#include <butterfly/butterfly.hpp>

#include <cstdio>

int main() {
  const int w = butterfly::native_width(), reference_w = butterfly::reference::native_width();
  std::printf("native_width() = %d, reference::native_width() = %d\n", w, reference_w);
  return (w == butterfly::default_width() && reference_w == butterfly::reference::default_width())
             ? 0
             : 1;
}
