#include "butterfly/io/corpus.hpp"
#include "support.hpp"

using butterfly::io::checksum;
using butterfly::io::corpus;

namespace {
corpus small() {
  corpus c;
  c.doc_offsets = {0, 2, 3};
  c.words = {1, 0, 1};
  c.vocab = {"a", "bc"};
  return c;
}
}  // namespace

TEST_CASE("checksum: FNV-1a 64 of the documented byte layout", "[io][checksum]") {
  // Expected values from an independent Python implementation of the layout in corpus.hpp:
  //   h = 0xcbf29ce484222325; for b in data: h = ((h ^ b) * 0x100000001b3) % 2**64
  // with data = <q M, <q offsets..., <q N, <i words..., <q V, (<q len, bytes) per word.
  CHECK(checksum(corpus{}) == 0x0c8210784d8af5a5ull);  // 32 zero bytes: M, offsets[0], N, V
  CHECK(checksum(small()) == 0xc9c082f3d3121204ull);
}

TEST_CASE("checksum: any change of offsets, words or vocabulary changes it", "[io][checksum]") {
  const auto base = checksum(small());
  auto moved = small();
  moved.doc_offsets[1] = 1;  // same tokens, different document boundary
  auto word = small();
  word.words[2] = 0;
  auto vocab = small();
  vocab.vocab = {"ab", "c"};  // same bytes, different split
  CHECK(checksum(moved) != base);
  CHECK(checksum(word) != base);
  CHECK(checksum(vocab) != base);
  CHECK(checksum(small()) == base);
}
