#include "fields.hpp"

#include <charconv>
#include <cstdio>

namespace butterfly::io::detail {

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
}  // namespace

bool next_field(std::string_view& rest, std::string_view& field) {
  std::size_t b = 0;
  while (b < rest.size() && is_space(rest[b])) ++b;
  if (b == rest.size()) {
    rest = {};
    return false;
  }
  std::size_t e = b;
  while (e < rest.size() && !is_space(rest[e])) ++e;
  field = rest.substr(b, e - b);
  rest.remove_prefix(e);
  return true;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t value = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (s.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<std::pair<std::int64_t, std::int64_t>> parse_pair(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == s.npos) return std::nullopt;
  const auto a = parse_int(s.substr(0, colon)), b = parse_int(s.substr(colon + 1));
  if (!a || !b) return std::nullopt;
  return std::pair{*a, *b};
}

std::string quote(std::string_view s) {
  constexpr std::size_t max_shown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < max_shown; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > max_shown) out += "...";
  return out + "'";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace butterfly::io::detail
