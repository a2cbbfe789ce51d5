#include "butterfly/io/corpus.hpp"

namespace butterfly::io {

namespace {

// FNV-1a, 64-bit (http://www.isthe.com/chongo/tech/comp/fnv/): simple, byte-order free
// because every integer is fed as explicit little-endian bytes.
class fnv1a64 {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) hash_ = (hash_ ^ p[i]) * 0x100000001b3ull;
  }
  template <class T>
  void integer(T value) {
    auto v = static_cast<std::uint64_t>(value);
    unsigned char le[sizeof(T)];
    for (std::size_t i = 0; i < sizeof(T); ++i, v >>= 8)
      le[i] = static_cast<unsigned char>(v & 0xff);
    bytes(le, sizeof(T));
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::uint64_t checksum(const corpus& c) {
  fnv1a64 h;
  h.integer(c.num_docs());
  for (const std::int64_t offset : c.doc_offsets) h.integer(offset);
  h.integer(c.num_tokens());
  for (const std::int32_t word : c.words) h.integer(word);
  h.integer(static_cast<std::int64_t>(c.vocab.size()));
  for (const std::string& word : c.vocab) {
    h.integer(static_cast<std::int64_t>(word.size()));
    h.bytes(word.data(), word.size());
  }
  return h.value();
}

}  // namespace butterfly::io
