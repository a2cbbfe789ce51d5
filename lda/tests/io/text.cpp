#include "butterfly/io/corpus.hpp"
#include "support.hpp"

using butterfly::io::read_text;
using butterfly::io::text_options;
using Words = std::vector<std::int32_t>;
using Offsets = std::vector<std::int64_t>;
using Vocab = std::vector<std::string>;

TEST_CASE("text: letter runs, lowercased, numbered by first occurrence", "[io][text]") {
  io_test::temp_dir dir;
  // Line 2 is empty (an empty document); digits, punctuation and UTF-8 bytes separate
  // words; the last line has no newline.
  const auto c = read_text(dir.write("t.txt", "The cat, the HAT!\n\nr2d2 caf\xc3\xa9 cat's\ncat"));
  CHECK(c.vocab == Vocab{"the", "cat", "hat", "r", "d", "caf", "s"});
  CHECK(c.doc_offsets == Offsets{0, 4, 4, 9, 10});
  CHECK(c.words == Words{0, 1, 0, 2, 3, 4, 5, 1, 6, 1});
}

TEST_CASE("text: stop words with comments are dropped, case-insensitively", "[io][text]") {
  io_test::temp_dir dir;
  text_options options;
  options.stopwords_path =
      dir.write("stop.txt", "# English stop words\nThe\n\n  a   # article\nof\n");
  const auto c = read_text(dir.write("t.txt", "The art of a cat\nA cat\n"), options);
  CHECK(c.vocab == Vocab{"art", "cat"});
  CHECK(c.words == Words{0, 1, 1});
  CHECK(c.doc_offsets == Offsets{0, 2, 3});
}

TEST_CASE("text: min_df drops rare words and keeps first-occurrence order", "[io][text]") {
  io_test::temp_dir dir;
  text_options options;
  options.min_df = 2;
  // "x" occurs three times but in one document only: document frequency counts documents.
  const auto c = read_text(dir.write("t.txt", "x x x b a\na c\nb d a\n"), options);
  CHECK(c.vocab == Vocab{"b", "a"});
  CHECK(c.doc_offsets == Offsets{0, 2, 3, 5});
  CHECK(c.words == Words{0, 1, 1, 0, 1});
  options.min_df = 4;
  const auto none = read_text(dir.path("t.txt"), options);
  CHECK(none.vocab.empty());
  CHECK(none.doc_offsets == Offsets{0, 0, 0, 0});
}

TEST_CASE("text: gzip input reads like plain input", "[io][text]") {
  io_test::temp_dir dir;
  const std::string text = "one two\nthree one\n";
  const auto plain = read_text(dir.write("t.txt", text));
  const auto gz = read_text(dir.write_gz("t.gz", text));
  CHECK(butterfly::io::checksum(plain) == butterfly::io::checksum(gz));
  CHECK(gz.vocab == Vocab{"one", "two", "three"});
}

TEST_CASE("text error: unreadable text or stop-word file, bad min_df", "[io][text][error]") {
  io_test::temp_dir dir;
  const auto missing = dir.path("missing.txt");
  REQUIRE_INPUT_ERROR(read_text(missing), missing + ": cannot open: ", "No such file");
  text_options options;
  options.stopwords_path = missing;
  REQUIRE_INPUT_ERROR(read_text(dir.write("t.txt", "a b\n"), options),
                      missing + ": cannot open: ", "No such file");
  options.stopwords_path.clear();
  options.min_df = 0;
  REQUIRE_THROWS_AS(read_text(dir.path("t.txt"), options), std::invalid_argument);
}
