#include "butterfly/io/corpus.hpp"
#include "support.hpp"

using butterfly::io::read_ldac;
using Words = std::vector<std::int32_t>;
using Offsets = std::vector<std::int64_t>;

TEST_CASE("ldac: reads documents in file order, empty documents and vocabulary", "[io][ldac]") {
  io_test::temp_dir dir;
  const auto p = dir.write("corpus.dat", "2 3:2 0:1\n0\n1 1:3\n");
  const auto v = dir.write("vocab.txt", "zero\none\ntwo\nthree\nfour\n");
  const auto c = read_ldac(p, v);
  CHECK(c.doc_offsets == Offsets{0, 3, 3, 6});
  CHECK(c.words == Words{3, 3, 0, 1, 1, 1});
  CHECK(c.vocab == std::vector<std::string>{"zero", "one", "two", "three", "four"});

  // Without a vocabulary V = max id + 1.
  const auto bare = read_ldac(p, "");
  CHECK(bare.words == c.words);
  CHECK(bare.vocab == std::vector<std::string>{"w0", "w1", "w2", "w3"});
}

TEST_CASE("ldac: gzip input and an empty file", "[io][ldac]") {
  io_test::temp_dir dir;
  const auto c = read_ldac(dir.write_gz("corpus.dat", "1 2:1\n2 0:1 1:1\n"), "");
  CHECK(c.doc_offsets == Offsets{0, 1, 3});
  CHECK(c.words == Words{2, 0, 1});
  const auto empty = read_ldac(dir.write("empty.dat", ""), "");
  CHECK(empty.num_docs() == 0);
  CHECK(empty.vocab_size() == 0);
}

TEST_CASE("ldac error: N does not match the number of pairs", "[io][ldac][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("c.dat");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1\n3 1:1 2:1\n"), ""),
                      p + ":2:", "N = 3 but the line has 2 id:count pairs");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1 1:1\n"), ""),
                      p + ":1:", "N = 1 but the line has 2 id:count pairs");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "x 0:1\n"), ""), p + ":1:", "found 'x'");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "-1\n"), ""), p + ":1:", "found '-1'");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1\n\n"), ""),
                      p + ":2:", "found an empty line");
}

TEST_CASE("ldac error: malformed id:count pairs", "[io][ldac][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("c.dat");
  for (const std::string pair : {"3", "3:", ":3", "a:2", "3:b", "3:2:1", "3;2"}) {
    INFO(pair);
    REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1\n1 " + pair + "\n"), ""), p + ":2:",
                        "expected 'id:count' with integer id and count, found '" + pair + "'");
  }
}

TEST_CASE("ldac error: word ids out of range", "[io][ldac][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("c.dat");
  const auto v = dir.write("vocab.txt", "a\nb\nc\n");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 3:1\n"), v),
                      p + ":1:", "word id 3 is out of range [0, V = 3)");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1\n1 -1:1\n"), ""),
                      p + ":2:", "word id -1 is out of range");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 4294967296:1\n"), ""),
                      p + ":1:", "word id 4294967296 is out of range");
  // Without a vocabulary, a lone huge id would make two billion placeholder words.
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 2000000000:1\n1 0:1\n"), ""),
                      p + ":1:", "word id 2000000000 but only 2 entries");
}

TEST_CASE("ldac error: zero or negative counts, and ids twice in a document", "[io][ldac][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("c.dat");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "2 0:1 1:-2\n"), ""),
                      p + ":1:", "count must be >= 1, found -2 for word id 1");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1\n1 1:0\n"), ""),
                      p + ":2:", "count must be >= 1, found 0");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "3 4:1 2:1 4:2\n"), ""),
                      p + ":1:", "word id 4 appears twice in this document");
  butterfly::io::read_limits small;
  small.max_tokens = 5;
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:3\n1 1:3\n"), "", small),
                      p + ":2:", "more than 5 tokens");
}

TEST_CASE("ldac error: truncated file, bad vocabulary, missing files", "[io][ldac][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("c.dat");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1\n1 1:1"), ""),
                      p + ":2:", "does not end with a newline");
  const auto v = dir.path("vocab.txt");
  REQUIRE_INPUT_ERROR(read_ldac(dir.write("c.dat", "1 0:1\n"), dir.write("vocab.txt", "a\n\nc\n")),
                      v + ":2:", "expected a word, found an empty line");
  const auto missing = dir.path("missing");
  REQUIRE_INPUT_ERROR(read_ldac(missing, ""), missing + ": cannot open: ", "No such file");
  REQUIRE_INPUT_ERROR(read_ldac(p, missing), missing + ": cannot open: ", "No such file");
}

TEST_CASE("ldac error: a duplicated vocabulary word names both of its lines", "[io][ldac][error]") {
  io_test::temp_dir dir;
  const auto p = dir.write("c.dat", "1 0:1\n");
  const auto v = dir.path("vocab.txt");
  REQUIRE_INPUT_ERROR(read_ldac(p, dir.write("vocab.txt", "a\nb\nc\nd\ne\nf\nc\n")),
                      v + ":7:", "word 'c' already on " + v + ":3");
}
