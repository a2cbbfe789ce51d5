#include "butterfly/io/corpus.hpp"
#include "support.hpp"

using butterfly::io::format_from_name;
using butterfly::io::read_uci;
using Catch::Contains;
using Words = std::vector<std::int32_t>;
using Offsets = std::vector<std::int64_t>;

namespace {
// D=4 (documents 2 and 4 have no entries), W=5, NNZ=4.
const std::string docword = "4\n5\n4\n1 2 2\n1 5 1\n3 1 3\n3 2 1\n";
const std::string vocab = "apple\nbanana\ncherry\ndate\nelder\n";
const std::string header = "2\n3\n1\n";  // D=2, W=3, NNZ=1: for single-entry-line tests
}  // namespace

TEST_CASE("uci: reads documents, empty documents, expanded counts and vocabulary", "[io][uci]") {
  io_test::temp_dir dir;
  const auto c = read_uci(dir.write("docword.txt", docword), dir.write("vocab.txt", vocab));
  CHECK(c.num_docs() == 4);
  CHECK(c.doc_offsets == Offsets{0, 3, 3, 7, 7});
  CHECK(c.words == Words{1, 1, 4, 0, 0, 0, 1});
  CHECK(c.num_tokens() == 7);
  CHECK(c.vocab == std::vector<std::string>{"apple", "banana", "cherry", "date", "elder"});
  CHECK(c.vocab_size() == 5);
}

TEST_CASE("uci: without a vocabulary file the words are w<id> placeholders", "[io][uci]") {
  io_test::temp_dir dir;
  const auto c = read_uci(dir.write("docword.txt", docword), "");
  CHECK(c.vocab == std::vector<std::string>{"w0", "w1", "w2", "w3", "w4"});
  CHECK(c.words == Words{1, 1, 4, 0, 0, 0, 1});
}

TEST_CASE("uci: gzip and CRLF files read the same as plain ones", "[io][uci]") {
  io_test::temp_dir dir;
  const auto plain = read_uci(dir.write("docword.txt", docword), dir.write("vocab.txt", vocab));
  // Named .txt on purpose: gzip is recognised by its magic bytes, not by the name.
  const auto gz = read_uci(dir.write_gz("docword-gz.txt", docword), dir.path("vocab.txt"));
  std::string crlf;
  for (const char ch : docword) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  const auto dos = read_uci(dir.write("docword-crlf.txt", crlf), dir.path("vocab.txt"));
  CHECK(gz.doc_offsets == plain.doc_offsets);
  CHECK(gz.words == plain.words);
  CHECK(dos.words == plain.words);
  CHECK(dos.doc_offsets == plain.doc_offsets);
  CHECK(butterfly::io::checksum(gz) == butterfly::io::checksum(plain));
}

TEST_CASE("uci: a file without entries gives D empty documents", "[io][uci]") {
  io_test::temp_dir dir;
  const auto c = read_uci(dir.write("docword.txt", "3\n2\n0\n"), "");
  CHECK(c.doc_offsets == Offsets{0, 0, 0, 0});
  CHECK(c.words.empty());
  CHECK(c.vocab_size() == 2);
}

TEST_CASE("uci error: missing, non-numeric or negative header counts", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", ""), ""), p + ":1:", "found end of file");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "3\n"), ""),
                      p + ":2:", "vocabulary size W");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "3\n4\n"), ""), p + ":3:", "NNZ");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "three\n4\n1\n"), ""),
                      p + ":1:", "found 'three'");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "3\n-4\n1\n"), ""),
                      p + ":2:", "found '-4'");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "3\n4\n\n"), ""),
                      p + ":3:", "found an empty line");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "3 4\n4\n1\n"), ""),
                      p + ":1:", "alone on the line");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "3\n4\n99999999999999999999\n"), ""),
                      p + ":3:", "non-negative integer");
}

TEST_CASE("uci error: more or fewer entry lines than NNZ", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "2\n3\n1\n1 1 1\n2 1 1\n"), ""),
                      p + ":5:", "found more lines");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "2\n3\n3\n1 1 1\n2 1 1\n"), ""),
                      p + ":6:", "expected 1 more entries (NNZ = 3 on line 3), found end of file");
}

TEST_CASE("uci error: docID or wordID out of range", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "3 1 1\n"), ""),
                      p + ":4:", "docID 3 is out of range [1, D = 2]");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "0 1 1\n"), ""),
                      p + ":4:", "docID 0 is out of range");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 4 1\n"), ""),
                      p + ":4:", "wordID 4 is out of range [1, W = 3]");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 0 1\n"), ""),
                      p + ":4:", "wordID 0 is out of range");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 -2 1\n"), ""),
                      p + ":4:", "wordID -2 is out of range");
}

TEST_CASE("uci error: zero or negative counts", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 1 0\n"), ""),
                      p + ":4:", "count must be >= 1, found 0");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 1 -3\n"), ""),
                      p + ":4:", "count must be >= 1, found -3");
}

TEST_CASE("uci error: non-numeric, missing or extra fields", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 x 1\n"), ""),
                      p + ":4:", "expected an integer wordID, found 'x'");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "a 1 1\n"), ""),
                      p + ":4:", "expected an integer docID, found 'a'");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 1 2.5\n"), ""),
                      p + ":4:", "expected an integer count, found '2.5'");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 1\n"), ""),
                      p + ":4:", "expected 3 fields 'docID wordID count', found 2");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 1 1 7\n"), ""),
                      p + ":4:", "found an extra field '7'");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "\n"), ""), p + ":4:", "found 0");
}

TEST_CASE("uci error: entries out of (docID, wordID) order or duplicated", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "2\n3\n3\n1 1 1\n2 2 1\n1 3 1\n"), ""),
                      p + ":6:", "entry (1, 3) comes after (2, 2)");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "2\n3\n3\n1 1 1\n1 3 1\n1 2 1\n"), ""),
                      p + ":6:", "entry (1, 2) comes after (1, 3)");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "2\n3\n3\n1 1 1\n1 2 1\n1 2 4\n"), ""),
                      p + ":6:", "duplicate entry for (docID 1, wordID 2)");
}

TEST_CASE("uci error: truncated plain or gzip file", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  // The last line lost its newline (and maybe digits): refused rather than guessed at.
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "2\n3\n2\n1 1 1\n2 1 1"), ""),
                      p + ":5:", "does not end with a newline");

  // A gzip stream cut in the middle.
  std::string big = "1\n1000\n1000\n";
  for (int w = 1; w <= 1000; ++w)
    big += "1 " + std::to_string(w) + " " + std::to_string(w % 7 + 1) + "\n";
  const auto gz = dir.write_gz("big.gz", big);
  REQUIRE(read_uci(gz, "").num_tokens() > 0);
  std::string bytes;
  {
    std::ifstream in(gz, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  REQUIRE(bytes.size() > 200);
  const auto cut = dir.write("cut.gz", bytes.substr(0, bytes.size() / 2));
  REQUIRE_INPUT_ERROR(read_uci(cut, ""), cut + ":", "gzip stream ends early");
  // A damaged gzip stream (bytes flipped in the middle of the deflate data).
  std::string damaged = bytes;
  for (std::size_t i = 20; i < 60; ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  const auto bad = dir.write("bad.gz", damaged);
  REQUIRE_THROWS_AS(read_uci(bad, ""), butterfly::io::input_error);
}

TEST_CASE(
    "uci error: vocabulary line count differs from W, an empty entry, or a duplicated vocabulary "
    "word",
    "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto d = dir.write("docword.txt", docword);
  const auto v = dir.path("vocab.txt");
  REQUIRE_INPUT_ERROR(read_uci(d, dir.write("vocab.txt", "a\nb\nc\nd\n")),
                      v + ":5:", "expected 5 lines (W = 5 on " + d + ":2), found end of file");
  REQUIRE_INPUT_ERROR(read_uci(d, dir.write("vocab.txt", "a\nb\nc\nd\ne\nf\n")),
                      v + ":6:", "found more");
  REQUIRE_INPUT_ERROR(read_uci(d, dir.write("vocab.txt", "a\nb\n\nd\ne\n")),
                      v + ":3:", "expected a word, found an empty line");
  REQUIRE_INPUT_ERROR(read_uci(d, dir.write("vocab.txt", "a\nb\n  \t\nd\ne\n")),
                      v + ":3:", "empty line");
  // A duplicated word names both of its lines; blanks around a word are not part of it.
  REQUIRE_INPUT_ERROR(read_uci(d, dir.write("vocab.txt", "a\nb\nc\nb\ne\n")),
                      v + ":4:", "word 'b' already on " + v + ":2");
  REQUIRE_INPUT_ERROR(read_uci(d, dir.write("vocab.txt", "a\nb\nc\nd\n a\t\n")),
                      v + ":5:", "word 'a' already on " + v + ":1");
  // Words differing only in case are different words.
  CHECK(read_uci(d, dir.write("vocab.txt", "a\nA\nc\nd\ne\n")).vocab_size() == 5);
}

TEST_CASE("uci error: files that cannot be opened", "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto missing = dir.path("missing.txt");
  REQUIRE_INPUT_ERROR(read_uci(missing, ""), missing + ": cannot open: ", "No such file");
  const auto d = dir.write("docword.txt", docword);
  REQUIRE_INPUT_ERROR(read_uci(d, missing), missing + ": cannot open: ", "No such file");
  const auto sub = dir.path("a-directory");
  std::filesystem::create_directory(sub);
  REQUIRE_INPUT_ERROR(read_uci(sub, ""), sub + ":1: cannot read: ", "Is a directory");
}

TEST_CASE("uci error: header claims that would need huge allocations fail fast",
          "[io][uci][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("docword.txt");
  // D = 10^18 with one entry: refused instead of allocating 10^18 offsets.
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "1000000000000000000\n3\n1\n1 1 1\n"), ""),
                      p + ":4:", "documents without entries");
  REQUIRE_INPUT_ERROR(
      read_uci(dir.write("docword.txt", "1000000000000000000\n3\n1\n999999999999999 1 1\n"), ""),
      p + ":4:", "documents without entries");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "1\n1000000000000\n1\n1 1 1\n"), ""),
                      p + ":2:", "does not fit a 32-bit word id");
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "1\n2000000000\n1\n1 1 1\n"), ""),
                      p + ":2:", "header is probably corrupt");
  // A count of 10^12 tokens is refused before it is expanded.
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", header + "1 1 1000000000000\n"), ""),
                      p + ":4:", "more than 2147483647 tokens");
  butterfly::io::read_limits small;
  small.max_tokens = 10;
  REQUIRE_INPUT_ERROR(read_uci(dir.write("docword.txt", "1\n3\n2\n1 1 6\n1 2 5\n"), "", small),
                      p + ":5:", "more than 10 tokens");
  CHECK(read_uci(dir.write("docword.txt", "1\n3\n2\n1 1 6\n1 2 4\n"), "", small).num_tokens() ==
        10);
}

TEST_CASE("uci: the format is guessed from names with docword anywhere in them", "[io][uci]") {
  CHECK(format_from_name("/data/docword.nips.txt") == "uci");
  CHECK(format_from_name("eval/ap/train.docword.txt.gz") == "uci");
  CHECK(format_from_name("docs/docword-notes.txt") == "uci");
  CHECK(format_from_name("a/docword/corpus.txt") == "text");  // a directory name says nothing
  CHECK(format_from_name("ap.dat.gz") == "ldac");
  CHECK(format_from_name("words.txt") == "text");
}
