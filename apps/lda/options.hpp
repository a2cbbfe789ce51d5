// Command-line options of butterfly-lda: one table per subcommand, so parsing, --help and
// the defaults come from the same place.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace butterfly::app {

// A bad command line: the program prints the message and exits with code 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct option_spec {
  std::string name;           // without the leading "--"
  std::string value_name;     // "" for a flag
  std::string default_value;  // shown in --help; "" = none
  std::string help;
};

// Parsed "--name value" / "--name=value" pairs; every name is one of the specs.
class option_values {
 public:
  option_values(const std::vector<option_spec>& specs, const std::vector<std::string>& args);

  bool given(const std::string& name) const { return values_.count(name) != 0; }
  // The given value, else the spec's default.
  std::string text(const std::string& name) const;
  long long integer(const std::string& name, long long min, long long max) const;
  double number(const std::string& name, double min, double max, bool min_inclusive = true) const;
  bool flag(const std::string& name) const { return given(name); }
  // The given options in command-line order, as "--name" "value" pairs.
  const std::vector<std::pair<std::string, std::string>>& in_order() const { return order_; }

 private:
  std::map<std::string, option_spec> specs_;
  std::map<std::string, std::string> values_;
  std::vector<std::pair<std::string, std::string>> order_;
};

std::string help_text(const std::string& usage, const std::string& summary,
                      const std::vector<option_spec>& specs);

}  // namespace butterfly::app
