// Splitting lines into whitespace-separated fields and parsing them strictly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace butterfly::io::detail {

// Takes the next field (separated by spaces or tabs) off the front of `rest`; false when
// only separators remain.
bool next_field(std::string_view& rest, std::string_view& field);

// The whole of `s` as a decimal integer ("-" allowed, no "+", no spaces), or nothing
// (empty, stray characters, or out of int64 range).
std::optional<std::int64_t> parse_int(std::string_view s);

// "a:b" with a and b decimal integers as parse_int reads them (an id or topic and its
// count: LDA-C's and MALLET's pairs), or nothing.
std::optional<std::pair<std::int64_t, std::int64_t>> parse_pair(std::string_view s);

// `s` for an error message: quoted, shortened, control bytes escaped.
std::string quote(std::string_view s);

std::string_view trim(std::string_view s);

}  // namespace butterfly::io::detail
