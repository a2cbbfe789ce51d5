#include "corpus_input.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace butterfly::app {
namespace fs = std::filesystem;
namespace {

const char* const bundled_docword = "ap/docword.ap.txt.gz";
const char* const bundled_vocab = "ap/vocab.ap.txt";

std::string absolute(const std::string& p) { return p.empty() ? p : fs::absolute(p).lexically_normal().string(); }

std::string format_from_name(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (name.rfind("docword", 0) == 0) return "uci";
  for (const char* ext : {".dat", ".ldac", ".dat.gz", ".ldac.gz"})
    if (name.size() > std::string(ext).size() && name.compare(name.size() - std::string(ext).size(), std::string::npos, ext) == 0)
      return "ldac";
  return "text";
}

}  // namespace

std::vector<option_spec> corpus_options() {
  return {
      {"corpus", "PATH", "", "documents: UCI docword, LDA-C or plain text (one document per line), plain or .gz; "
                             "without it the bundled ap corpus"},
      {"docword", "PATH", "", "same as --corpus, for a UCI docword file"},
      {"vocab", "PATH", "", "vocabulary file, word i on line i (UCI, LDA-C)"},
      {"corpus-format", "uci|ldac|text", "by file name: docword* = uci, *.dat/*.ldac = ldac, else text",
       "format of --corpus"},
      {"stopwords", "PATH", "", "text format: file of stop words to drop (one per line)"},
      {"min-df", "N", "1", "text format: drop words found in fewer than N documents"},
  };
}

corpus_source corpus_source_from(const option_values& o, bool bundled_by_default) {
  if (o.given("corpus") && o.given("docword")) throw usage_error("give --corpus or --docword, not both");
  corpus_source s;
  s.path = o.given("corpus") ? o.text("corpus") : o.text("docword");
  s.vocab = o.text("vocab");
  s.stopwords = o.text("stopwords");
  s.min_df = static_cast<int>(o.integer("min-df", 1, 1 << 30));
  if (s.path.empty()) {
    if (!bundled_by_default) throw usage_error("missing --corpus (or --docword): the documents to read");
    if (o.given("vocab") || o.given("corpus-format"))
      throw usage_error("--vocab and --corpus-format need --corpus (or --docword)");
    const std::string dir = bundled_data_dir();
    s.path = dir + "/" + bundled_docword;
    s.vocab = dir + "/" + bundled_vocab;
    s.format = "uci";
    return s;
  }
  s.format = o.given("corpus-format") ? o.text("corpus-format")
             : o.given("docword")     ? "uci"
                                      : format_from_name(s.path);
  if (s.format != "uci" && s.format != "ldac" && s.format != "text")
    throw usage_error("option --corpus-format must be uci, ldac or text, got '" + s.format + "'");
  if (s.format == "text" && o.given("vocab")) throw usage_error("--vocab does not apply to --corpus-format text");
  if (s.format != "text" && (o.given("stopwords") || o.given("min-df")))
    throw usage_error("--stopwords and --min-df apply to --corpus-format text only");
  s.path = absolute(s.path);
  s.vocab = absolute(s.vocab);
  s.stopwords = absolute(s.stopwords);
  return s;
}

io::corpus load_corpus(const corpus_source& s) {
  if (s.format == "uci") return io::read_uci(s.path, s.vocab);
  if (s.format == "ldac") return io::read_ldac(s.path, s.vocab);
  io::text_options t;
  t.stopwords_path = s.stopwords;
  t.min_df = s.min_df;
  return io::read_text(s.path, t);
}

std::string bundled_data_dir() {
  if (const char* env = std::getenv("BUTTERFLY_DATA_DIR"); env && *env) {
    if (!fs::exists(fs::path(env) / bundled_docword))
      throw std::runtime_error(std::string("BUTTERFLY_DATA_DIR=") + env + " has no " + bundled_docword);
    return env;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path dir = ec ? fs::path() : (exe.parent_path() / ".." / "share" / "butterfly").lexically_normal();
  if (!ec && fs::exists(dir / bundled_docword)) return dir.string();
  throw std::runtime_error("the bundled corpus was not found (looked for " + std::string(bundled_docword) + " in " +
                           (ec ? std::string("<executable directory unknown>") : dir.string()) +
                           "); set BUTTERFLY_DATA_DIR to the folder holding ap/, or pass --corpus");
}

}  // namespace butterfly::app
