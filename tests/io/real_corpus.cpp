// Reads the real AP corpus from shared/data (outside the repository). When that directory
// is absent the test is skipped (exit 4) with the reason, never passed.
#include <catch2/catch.hpp>
#include <filesystem>

#include "butterfly/io/corpus.hpp"
#include "catch_session.hpp"

namespace {
const std::string data_dir = BUTTERFLY_SHARED_DATA;
}

TEST_CASE("real corpus: ap has the documented counts", "[io][uci][data]") {
  const auto c = butterfly::io::read_uci(data_dir + "/ap/docword.ap.txt.gz", data_dir + "/ap/vocab.ap.txt");
  // Figures from shared/data/README.md.
  CHECK(c.num_docs() == 2246);
  CHECK(c.vocab_size() == 10473);
  CHECK(c.num_tokens() == 435838);
  std::int64_t longest = 0;
  for (std::int64_t m = 0; m < c.num_docs(); ++m)
    longest = std::max(longest, c.doc_offsets[static_cast<std::size_t>(m) + 1] - c.doc_offsets[static_cast<std::size_t>(m)]);
  CHECK(longest == 620);
  // NNZ: distinct (doc, word) pairs; entries are sorted, so count changes within documents.
  std::int64_t nnz = 0;
  for (std::int64_t m = 0; m < c.num_docs(); ++m)
    for (auto t = c.doc_offsets[static_cast<std::size_t>(m)]; t < c.doc_offsets[static_cast<std::size_t>(m) + 1]; ++t)
      nnz += t == c.doc_offsets[static_cast<std::size_t>(m)] || c.words[static_cast<std::size_t>(t)] != c.words[static_cast<std::size_t>(t) - 1];
  CHECK(nnz == 302031);
  CHECK(butterfly::io::checksum(c) == butterfly::io::checksum(butterfly::io::read_uci(
                                          data_dir + "/ap/docword.ap.txt.gz", data_dir + "/ap/vocab.ap.txt")));
}

int main(int argc, char** argv) {
  return butterfly::test::run_catch_session(
      argc, argv,
      std::filesystem::is_directory(data_dir + "/ap")
          ? std::string()
          : "corpus directory " + data_dir + "/ap not found (shared/data sits beside the repository)");
}
