// Minimal JSON writing, for one-line records such as model.json and progress logs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace butterfly::io {

// `s` as a JSON string literal, quotes included; bytes >= 0x80 pass through (UTF-8 in,
// UTF-8 out), control characters are escaped.
std::string json_escape(std::string_view s);

// A double that reads back bit-identical (%.17g); NaN and infinities, which JSON cannot
// express, become null.
std::string json_number(double x);

// Builds one JSON object on one line, keys in insertion order:
//   json_object().add("alpha", 0.1).add("corpus", "ap").add("K", 20).str()
class json_object {
 public:
  json_object& add(std::string_view key, std::string_view value);
  json_object& add(std::string_view key, const char* value) {
    return add(key, std::string_view(value));
  }
  json_object& add(std::string_view key, const std::string& value) {
    return add(key, std::string_view(value));
  }
  json_object& add(std::string_view key, bool value) { return add_raw(key, value ? "true" : "false"); }
  json_object& add(std::string_view key, double value) { return add_raw(key, json_number(value)); }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  json_object& add(std::string_view key, T value) {
    return add_raw(key, std::to_string(value));
  }
  json_object& add(std::string_view key, const json_object& value) { return add_raw(key, value.str()); }
  // `json` must already be valid JSON (e.g. an array built by the caller).
  json_object& add_raw(std::string_view key, std::string_view json);

  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

}  // namespace butterfly::io
