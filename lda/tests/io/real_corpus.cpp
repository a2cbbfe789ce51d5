// Reads the real AP corpus from shared/data (outside the repository). When that directory
// is absent the test is skipped (exit 4) with the reason, never passed; with
// BUTTERFLY_REQUIRE_SHARED_DATA set (CI) it fails.
#include <catch2/catch.hpp>

#include "butterfly/io/corpus.hpp"
#include "catch_session.hpp"

namespace {
const std::string data_dir = BUTTERFLY_SHARED_DATA;
}

TEST_CASE("real corpus: ap has the documented counts", "[io][uci][data]") {
  const auto c =
      butterfly::io::read_uci(data_dir + "/ap/docword.ap.txt.gz", data_dir + "/ap/vocab.ap.txt");
  // Figures from shared/data/README.md.
  CHECK(c.num_docs() == 2246);
  CHECK(c.vocab_size() == 10473);
  CHECK(c.num_tokens() == 435838);
  std::int64_t longest = 0;
  for (std::int64_t m = 0; m < c.num_docs(); ++m)
    longest = std::max(longest, c.doc_offsets[static_cast<std::size_t>(m) + 1] -
                                    c.doc_offsets[static_cast<std::size_t>(m)]);
  CHECK(longest == 620);
  // NNZ: distinct (doc, word) pairs; entries are sorted, so count changes within documents.
  std::int64_t nnz = 0;
  for (std::int64_t m = 0; m < c.num_docs(); ++m)
    for (auto t = c.doc_offsets[static_cast<std::size_t>(m)];
         t < c.doc_offsets[static_cast<std::size_t>(m) + 1]; ++t)
      nnz += t == c.doc_offsets[static_cast<std::size_t>(m)] ||
             c.words[static_cast<std::size_t>(t)] != c.words[static_cast<std::size_t>(t) - 1];
  CHECK(nnz == 302031);
  // From an independent Python implementation of the documented layout (corpus.hpp) that
  // parses the UCI file itself (each (d, w, n) line gives n tokens of word w - 1, in file order):
  //   h = 0xcbf29ce484222325; for b in data: h = ((h ^ b) * 0x100000001b3) % 2**64
  // with data = <q M, <q offsets..., <q N, <i words..., <q V, (<q len, utf-8 bytes) per word.
  CHECK(butterfly::io::checksum(c) == 0xfb2d1e0adcfbea3aull);
}

int main(int argc, char** argv) {
  return butterfly::test::run_catch_session_with_data(argc, argv, data_dir + "/ap");
}
