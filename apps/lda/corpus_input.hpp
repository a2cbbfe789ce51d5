// Where butterfly-lda gets its documents: the corpus options, and the bundled corpus.
#pragma once

#include <string>
#include <vector>

#include "butterfly/io/corpus.hpp"
#include "options.hpp"

namespace butterfly::app {

std::vector<option_spec> corpus_options();

struct corpus_source {
  std::string format;  // uci, ldac or text
  std::string path;    // absolute
  std::string vocab;   // absolute, or "" (none)
  std::string stopwords;
  int min_df = 1;
};

// From --corpus/--docword, --vocab, --corpus-format, --stopwords, --min-df. Without a
// corpus option, the bundled ap corpus when `bundled_by_default`, else a usage_error.
// Paths are made absolute so a run can be resumed from another directory.
corpus_source corpus_source_from(const option_values& o, bool bundled_by_default);

// Reads it (io::input_error on a malformed file).
io::corpus load_corpus(const corpus_source& s);

// The directory holding the bundled corpora: $BUTTERFLY_DATA_DIR if set, else
// <executable>/../share/butterfly (the build tree and the install tree both have it).
// Throws std::runtime_error naming the places it looked.
std::string bundled_data_dir();

}  // namespace butterfly::app
