#include "corpus_input.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace butterfly::app {
namespace fs = std::filesystem;
namespace {

const char* const bundled_docword = "ap/docword.ap.txt.gz";
const char* const bundled_vocab = "ap/vocab.ap.txt";

std::string absolute(const std::string& p) {
  return p.empty() ? p : fs::absolute(p).lexically_normal().string();
}

}  // namespace

void add_corpus_options(CLI::App& cmd, corpus_args& a, corpus_required required) {
  // Paths become absolute as they are parsed: what train stores in a checkpoint then reads
  // the same files from any directory.
  const CLI::Validator absolute_path(
      [](std::string& path) {
        path = absolute(path);
        return std::string();
      },
      "");
  CLI::App* documents = cmd.add_option_group("documents", "the corpus to read");
  documents
      ->add_option(
          "--corpus", a.corpus,
          "documents: UCI docword, LDA-C or plain text (one document per line), plain or .gz" +
              std::string(required == corpus_required::yes ? ""
                                                           : "; without it the bundled ap corpus"))
      ->type_name("PATH")
      ->transform(absolute_path);
  documents->add_option("--docword", a.docword, "same as --corpus, for a UCI docword file")
      ->type_name("PATH")
      ->transform(absolute_path);
  if (required == corpus_required::yes) documents->require_option(1);
  else documents->require_option(0, 1);
  cmd.add_option("--vocab", a.vocab, "vocabulary file, word i on line i (UCI, LDA-C)")
      ->type_name("PATH")
      ->transform(absolute_path);
  cmd.add_option("--corpus-format", a.format,
                 "format of --corpus (default: by file name: *docword* = uci, *.dat/*.ldac = ldac, "
                 "else text)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"uci", "ldac", "text"}));
  cmd.add_option("--stopwords", a.stopwords,
                 "text format: file of stop words to drop (one per line)")
      ->type_name("PATH")
      ->transform(absolute_path);
  cmd.add_option("--min-df", a.min_df, "text format: drop words found in fewer than N documents")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 30))
      ->default_str(std::to_string(corpus_source{}.min_df));
}

corpus_source corpus_source_from(const corpus_args& a) {
  // Which options apply depends on the format, which may come from the file name: checked
  // here rather than declared to CLI11.
  const auto refuse_if = [](bool given, const char* option, const std::string& why) {
    if (given) throw CLI::ValidationError(option, why);
  };
  corpus_source s;
  if (a.corpus || a.docword) {
    s.path = a.corpus ? *a.corpus : *a.docword;
    s.format = a.format ? *a.format : a.docword ? "uci" : io::format_from_name(s.path);
    s.vocab = a.vocab.value_or("");
  } else {
    const char* const why = "needs --corpus or --docword (the bundled corpus has its own)";
    refuse_if(a.vocab.has_value(), "--vocab", why);
    refuse_if(a.format.has_value(), "--corpus-format", why);
    const std::string dir = bundled_data_dir();
    s.path = dir + "/" + bundled_docword;
    s.vocab = dir + "/" + bundled_vocab;
    s.format = "uci";
  }
  refuse_if(s.format == "text" && a.vocab, "--vocab", "does not apply to --corpus-format text");
  const std::string text_only = "applies to --corpus-format text only, not " + s.format;
  refuse_if(s.format != "text" && a.stopwords, "--stopwords", text_only);
  refuse_if(s.format != "text" && a.min_df, "--min-df", text_only);
  s.stopwords = a.stopwords.value_or("");
  s.min_df = a.min_df.value_or(s.min_df);
  return s;
}

io::corpus load_corpus(const corpus_source& s) {
  io::text_options t;
  t.stopwords_path = s.stopwords;
  t.min_df = s.min_df;
  return io::read_corpus(s.path, s.format, s.vocab, t);
}

std::string bundled_data_dir() {
  if (const char* env = std::getenv("BUTTERFLY_DATA_DIR"); env && *env) {
    if (!fs::exists(fs::path(env) / bundled_docword))
      throw std::runtime_error(std::string("BUTTERFLY_DATA_DIR=") + env + " has no " +
                               bundled_docword);
    return env;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path dir =
      ec ? fs::path() : (exe.parent_path() / ".." / "share" / "butterfly").lexically_normal();
  if (!ec && fs::exists(dir / bundled_docword)) return dir.string();
  throw std::runtime_error("the bundled corpus was not found (looked for " +
                           std::string(bundled_docword) + " in " +
                           (ec ? std::string("<executable directory unknown>") : dir.string()) +
                           "); set BUTTERFLY_DATA_DIR to the folder holding ap/, or pass --corpus");
}

}  // namespace butterfly::app
