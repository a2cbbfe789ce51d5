// The benchmark corpora: butterfly::io::read_uci on DATA/name/{docword.name.txt.gz,
// vocab.name.txt}, optionally cut to the first documents.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/io/corpus.hpp"

namespace butterfly::bench {

struct corpus {
  std::string name;
  std::int64_t V = 0;                        // vocabulary size
  std::vector<std::int64_t> doc_offsets{0};  // CSR over documents
  std::vector<std::int32_t> words;           // 0-based word ids, one per token
  std::int64_t M() const { return static_cast<std::int64_t>(doc_offsets.size()) - 1; }
  std::int64_t N() const { return static_cast<std::int64_t>(words.size()); }
};

// The folder the build was configured with (BUTTERFLY_DATA_DIR), or $BUTTERFLY_DATA_DIR.
inline std::string data_dir() {
  const char* env = std::getenv("BUTTERFLY_DATA_DIR");
  return env ? env : BUTTERFLY_DATA_DIR;
}

// Keeps the first max_docs documents (0: all). Throws naming the missing file and how to
// point the programs at the data.
inline corpus read_docword(const std::string& name, std::int64_t max_docs = 0) {
  const std::string dir = data_dir() + "/" + name;
  const std::string docword = dir + "/docword." + name + ".txt.gz";
  const std::string vocab = dir + "/vocab." + name + ".txt";
  for (const std::string& path : {docword, vocab})
    if (!std::ifstream(path))
      throw std::runtime_error(path +
                               ": cannot open the benchmark corpus (configure with "
                               "-DBUTTERFLY_DATA_DIR=<folder holding " +
                               name + "/> or set $BUTTERFLY_DATA_DIR)");
  io::corpus full = io::read_uci(docword, vocab);
  corpus c;
  c.name = name;
  c.V = full.vocab_size();
  c.doc_offsets = std::move(full.doc_offsets);
  c.words = std::move(full.words);
  if (max_docs > 0 && max_docs < c.M()) {
    c.doc_offsets.resize(static_cast<std::size_t>(max_docs) + 1);
    c.words.resize(static_cast<std::size_t>(c.doc_offsets.back()));
  }
  return c;
}

// The documents the timing programs run on: wiki-lead, or the corpus named by
// $BUTTERFLY_BENCH_CORPUS (e.g. ap, as bench/cpu.sh runs); all of them, or the first
// $BUTTERFLY_BENCH_DOCS.
inline corpus wiki_lead_documents() {
  const char* docs = std::getenv("BUTTERFLY_BENCH_DOCS");
  const char* name = std::getenv("BUTTERFLY_BENCH_CORPUS");
  return read_docword(name ? name : "wiki-lead", docs ? std::atoll(docs) : 0);
}

// Loads the corpus before any benchmark runs and says on stderr what is timed (bench/run.sh
// reads the token count from this line). A corpus that cannot be read is one line naming
// `program` and the file, and false: the caller exits 1.
inline bool announce(const char* program, const std::function<const corpus&()>& get,
                     const std::string& details) {
  try {
    const corpus& c = get();
    std::cerr << c.name << ": " << c.M() << " documents, " << c.N() << " tokens, V = " << c.V
              << "; backend " << backend_name() << ", " << details << '\n';
    return true;
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return false;
  }
}

}  // namespace butterfly::bench
