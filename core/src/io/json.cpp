#include "butterfly/io/json.hpp"

#include <cmath>
#include <cstdio>

namespace butterfly::io {

std::string json_escape(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned>(c));
          out += hex;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

json_object& json_object::add(std::string_view key, std::string_view value) {
  return add_raw(key, json_escape(value));
}

json_object& json_object::add_raw(std::string_view key, std::string_view json) {
  if (!body_.empty()) body_ += ", ";
  body_ += json_escape(key);
  body_ += ": ";
  body_ += json;
  return *this;
}

}  // namespace butterfly::io
