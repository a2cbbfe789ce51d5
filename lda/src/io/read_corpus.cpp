// One entry point for the three corpus formats, and the guess of a format from a file name.
#include <filesystem>
#include <stdexcept>

#include "butterfly/io/corpus.hpp"

namespace butterfly::io {

std::string format_from_name(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  // UCI's own names (docword.ap.txt) and derived ones (train.docword.txt.gz of an eval split)
  if (name.find("docword") != std::string::npos) return "uci";
  for (const std::string ext : {".dat", ".ldac", ".dat.gz", ".ldac.gz"})
    if (name.size() > ext.size() &&
        name.compare(name.size() - ext.size(), std::string::npos, ext) == 0)
      return "ldac";
  return "text";
}

corpus read_corpus(const std::string& path, const std::string& format,
                   const std::string& vocab_path, const text_options& text) {
  if (format == "uci") return read_uci(path, vocab_path);
  if (format == "ldac") return read_ldac(path, vocab_path);
  if (format == "text") return read_text(path, text);
  throw std::invalid_argument("corpus format: '" + format + "' is not one of uci, ldac, text");
}

}  // namespace butterfly::io
