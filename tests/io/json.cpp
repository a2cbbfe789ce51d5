#include "butterfly/io/json.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "support.hpp"

using butterfly::io::json_escape;
using butterfly::io::json_number;
using butterfly::io::json_object;

TEST_CASE("json: strings are quoted and escaped", "[io][json]") {
  CHECK(json_escape("plain") == "\"plain\"");
  CHECK(json_escape("a\"b\\c") == R"("a\"b\\c")");
  CHECK(json_escape("\n\t\r\b\f") == R"("\n\t\r\b\f")");
  CHECK(json_escape(std::string("\x01\x1f", 2)) == R"("\u0001\u001f")");
  CHECK(json_escape(std::string(1, '\0')) == R"("\u0000")");
  CHECK(json_escape("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
}

TEST_CASE("json: doubles round-trip, non-finite values are null", "[io][json]") {
  for (const double x : {0.1, 1.0 / 3.0, -2.5e-300, 6.02214076e23, 4.9e-324, 0.0}) {
    const std::string text = json_number(x);
    CHECK(std::strtod(text.c_str(), nullptr) == x);
  }
  CHECK(json_number(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(json_number(std::numeric_limits<double>::infinity()) == "null");
  CHECK(json_number(-std::numeric_limits<double>::infinity()) == "null");
}

TEST_CASE("json: objects keep insertion order on one line", "[io][json]") {
  const std::string inner = json_object().add("x", 1).str();
  const std::string s = json_object()
                            .add("name", "ap")
                            .add("K", 20)
                            .add("tokens", std::int64_t{435838})
                            .add("hash", std::uint64_t{18446744073709551615ull})
                            .add("alpha", 0.5)
                            .add("beta", 0.25f)
                            .add("ok", true)
                            .add("nested", json_object().add("x", 1))
                            .add_raw("list", "[1, 2]")
                            .add("bad", std::nan(""))
                            .str();
  CHECK(inner == R"({"x": 1})");
  CHECK(s == R"({"name": "ap", "K": 20, "tokens": 435838, "hash": 18446744073709551615, )"
             R"("alpha": 0.5, "beta": 0.25, "ok": true, "nested": {"x": 1}, "list": [1, 2], "bad": null})");
  CHECK(json_object().str() == "{}");
}
