// Where butterfly-lda gets its documents: the corpus options, and the bundled corpus.
#pragma once

#include <optional>
#include <string>

#include "butterfly/io/corpus.hpp"
#include "butterfly/lda/checkpoint.hpp"

namespace CLI {
class App;
}

namespace butterfly::app {

// The corpus options as given; empty when not given. Paths are made absolute while
// parsing, so a run can be resumed from another directory.
struct corpus_args {
  std::optional<std::string> corpus, docword, vocab, format, stopwords;
  std::optional<int> min_df;
};

enum class corpus_required { no, yes };

// --corpus or --docword (at most one; exactly one when required), --vocab,
// --corpus-format, --stopwords, --min-df.
void add_corpus_options(CLI::App& cmd, corpus_args& a, corpus_required required);

// What to read: the corpus file as a checkpoint stores it.
using corpus_source = lda::corpus_file;

// The documents `a` names; without --corpus/--docword the bundled ap corpus. Options that
// do not apply to the corpus's format, whether given or guessed from the file name, are a
// CLI::ValidationError naming them.
corpus_source corpus_source_from(const corpus_args& a);

// Reads it (io::input_error on a malformed file).
io::corpus load_corpus(const corpus_source& s);

// The directory holding the bundled corpora: $BUTTERFLY_DATA_DIR if set, else
// <executable>/../share/butterfly (the build tree and the install tree both have it).
// Throws std::runtime_error naming the places it looked.
std::string bundled_data_dir();

}  // namespace butterfly::app
