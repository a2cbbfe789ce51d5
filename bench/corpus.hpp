// A minimal reader of the UCI bag-of-words corpora for the benchmarks.
// TODO(lead): replace with butterfly::io::read_uci (core/include/butterfly/io/corpus.hpp,
// branch lda) once it is on main; this one exists only because that reader had not landed.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace butterfly::bench {

struct corpus {
  std::string name;
  std::int64_t V = 0;                       // vocabulary size
  std::vector<std::int64_t> doc_offsets{0}; // CSR over documents
  std::vector<std::int32_t> words;          // 0-based word ids, one per token
  std::int64_t M() const { return static_cast<std::int64_t>(doc_offsets.size()) - 1; }
  std::int64_t N() const { return static_cast<std::int64_t>(words.size()); }
};

// The folder the build was configured with (BUTTERFLY_DATA_DIR), or $BUTTERFLY_DATA_DIR.
inline std::string data_dir() {
  const char* env = std::getenv("BUTTERFLY_DATA_DIR");
  return env ? env : BUTTERFLY_DATA_DIR;
}

// Reads DATA/name/docword.name.txt.gz; keeps at most max_docs documents (0: all). Throws
// std::runtime_error naming the file (and line) when it is missing or malformed.
inline corpus read_docword(const std::string& name, std::int64_t max_docs = 0) {
  const std::string path = data_dir() + "/" + name + "/docword." + name + ".txt.gz";
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f)
    throw std::runtime_error(path + ": cannot open the benchmark corpus (configure with "
                             "-DBUTTERFLY_DATA_DIR=<folder holding " + name +
                             "/> or set $BUTTERFLY_DATA_DIR)");
  corpus c;
  c.name = name;
  char line[256];
  long long header[3];
  std::int64_t n = 0;
  auto fail = [&](const std::string& what) {
    gzclose(f);
    throw std::runtime_error(path + ":" + std::to_string(n) + ": " + what);
  };
  for (int h = 0; h < 3; ++h, ++n)
    if (!gzgets(f, line, sizeof line) || std::sscanf(line, "%lld", &header[h]) != 1)
      fail("expected the header line " + std::to_string(h + 1) + " (D, W, NNZ)");
  c.V = header[1];
  long long d, w, count, last_d = 0;
  while (gzgets(f, line, sizeof line)) {
    ++n;
    if (std::sscanf(line, "%lld %lld %lld", &d, &w, &count) != 3 || d < last_d || d > header[0] ||
        w < 1 || w > c.V || count < 1)
      fail("expected 'docID wordID count' with 1 <= docID <= D (non-decreasing), "
           "1 <= wordID <= W, count >= 1");
    if (max_docs > 0 && d > max_docs) break;
    while (last_d < d) {  // documents with no entries stay empty
      if (last_d > 0) c.doc_offsets.push_back(c.N());
      ++last_d;
    }
    c.words.insert(c.words.end(), static_cast<std::size_t>(count), static_cast<std::int32_t>(w - 1));
  }
  gzclose(f);
  if (last_d > 0) c.doc_offsets.push_back(c.N());
  const std::int64_t D = max_docs > 0 && max_docs < header[0] ? max_docs : header[0];
  while (c.M() < D) c.doc_offsets.push_back(c.N());
  return c;
}

}  // namespace butterfly::bench
