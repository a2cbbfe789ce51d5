#include "options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace butterfly::app {

option_values::option_values(const std::vector<option_spec>& specs,
                             const std::vector<std::string>& args) {
  for (const auto& s : specs) specs_[s.name] = s;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) throw usage_error("unexpected argument '" + a + "' (options start with --)");
    std::string name = a.substr(2), value;
    const auto eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    const auto it = specs_.find(name);
    if (it == specs_.end()) throw usage_error("unknown option --" + name + " (see --help)");
    if (it->second.value_name.empty()) {
      if (inline_value) throw usage_error("option --" + name + " takes no value");
    } else if (!inline_value) {
      if (i + 1 >= args.size()) throw usage_error("option --" + name + " needs a value (" + it->second.value_name + ")");
      value = args[++i];
    }
    if (values_.count(name)) throw usage_error("option --" + name + " given twice");
    values_[name] = value;
    order_.emplace_back("--" + name, value);
  }
}

std::string option_values::text(const std::string& name) const {
  const auto it = values_.find(name);
  return it != values_.end() ? it->second : specs_.at(name).default_value;
}

long long option_values::integer(const std::string& name, long long min, long long max) const {
  const std::string t = text(name);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || errno == ERANGE || v < min || v > max)
    throw usage_error("option --" + name + " needs an integer in [" + std::to_string(min) + ", " +
                      std::to_string(max) + "], got '" + t + "'");
  return v;
}

double option_values::number(const std::string& name, double min, double max, bool min_inclusive) const {
  const std::string t = text(name);
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  const bool low_ok = min_inclusive ? v >= min : v > min;
  if (t.empty() || *end != '\0' || !std::isfinite(v) || !low_ok || v > max) {
    std::ostringstream range;
    range << (min_inclusive ? "[" : "(") << min << ", " << max << "]";
    throw usage_error("option --" + name + " needs a number in " + range.str() + ", got '" + t + "'");
  }
  return v;
}

std::string help_text(const std::string& usage, const std::string& summary,
                      const std::vector<option_spec>& specs) {
  std::ostringstream out;
  out << "usage: " << usage << "\n\n" << summary << "\n\noptions:\n";
  for (const auto& s : specs) {
    std::string left = "  --" + s.name + (s.value_name.empty() ? "" : " " + s.value_name);
    if (left.size() < 28) left.resize(28, ' ');
    else left += "\n" + std::string(28, ' ');
    out << left << s.help;
    if (!s.default_value.empty()) out << " (default: " << s.default_value << ")";
    out << "\n";
  }
  return out.str();
}

}  // namespace butterfly::app
