#include "butterfly/lda/checkpoint.hpp"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <type_traits>

#include "butterfly/io/atomic_file.hpp"
#include "butterfly/io/error.hpp"

namespace butterfly::lda {
namespace {

// Format 2 adds state::kept after z; format 1 files (no kept sweeps) still load.
constexpr char magic[8] = {'B', 'F', 'L', 'Y', 'C', 'K', 'P', '2'};
constexpr std::size_t version_byte = 7;

static_assert(sizeof(double) == 8 && sizeof(float) == 4, "checkpoints assume IEEE types");

// The byte image of the checkpoint is built in memory so its CRC can be appended; raw
// memory order is little-endian on every platform the project builds for (x86-64, ARM64).
class encoder {
 public:
  template <class T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const char* p = reinterpret_cast<const char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  template <class T>
  void array(const std::vector<T>& v) {
    pod(static_cast<std::uint64_t>(v.size()));
    const char* p = reinterpret_cast<const char*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size() * sizeof(T));
  }
  void text(const std::string& s) {
    pod(static_cast<std::uint64_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  std::vector<char> bytes;
};

class decoder {
 public:
  decoder(const std::string& path, const char* data, std::size_t size)
      : path_(path), p_(data), end_(data + size) {}
  template <class T>
  T pod() {
    T v;
    need(sizeof(T));
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  template <class T>
  std::vector<T> array() {
    const auto n = pod<std::uint64_t>();
    if (n > static_cast<std::uint64_t>(end_ - p_) / sizeof(T)) truncated();
    std::vector<T> v(static_cast<std::size_t>(n));
    if (n > 0) std::memcpy(v.data(), p_, v.size() * sizeof(T));  // an empty vector's data() may be null
    p_ += v.size() * sizeof(T);
    return v;
  }
  std::string text() {
    const auto chars = array<char>();
    return std::string(chars.begin(), chars.end());
  }
  bool done() const { return p_ == end_; }

 private:
  void need(std::size_t n) const {
    if (static_cast<std::size_t>(end_ - p_) < n) truncated();
  }
  [[noreturn]] void truncated() const {
    throw io::input_error(path_ + ": checkpoint is truncated or malformed");
  }
  const std::string& path_;
  const char* p_;
  const char* end_;
};

std::uint64_t crc(const char* data, std::size_t size) {
  uLong c = crc32(0L, Z_NULL, 0);
  // crc32 takes a uInt length: feed large images in pieces.
  while (size > 0) {
    const auto piece = static_cast<uInt>(size < (1u << 30) ? size : (1u << 30));
    c = crc32(c, reinterpret_cast<const Bytef*>(data), piece);
    data += piece;
    size -= piece;
  }
  return c;
}

}  // namespace

void save_checkpoint(const std::string& path, const checkpoint& c,
                     const std::function<void()>& halfway) {
  encoder e;
  e.bytes.assign(magic, magic + sizeof magic);
  e.pod(static_cast<std::uint64_t>(c.arguments.size()));
  for (const auto& a : c.arguments) e.text(a);
  e.pod(c.seed);
  e.pod(static_cast<std::int64_t>(c.hyper.num_topics));
  e.pod(c.hyper.alpha);
  e.pod(c.hyper.beta);
  e.text(c.method);
  e.pod(c.corpus_checksum);
  e.pod(c.s.iteration);
  e.array(c.s.theta);
  e.array(c.s.phi);
  e.array(c.s.z);
  e.array(c.s.kept);
  e.array(c.history);
  e.pod(crc(e.bytes.data(), e.bytes.size()));
  io::write_atomic(path, [&](std::ostream& out) {
    const auto half = static_cast<std::streamsize>(e.bytes.size() / 2);
    out.write(e.bytes.data(), half);
    if (halfway) {
      out.flush();
      halfway();
    }
    out.write(e.bytes.data() + half, static_cast<std::streamsize>(e.bytes.size()) - half);
  }, io::survives::power_loss);
}

checkpoint load_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::input_error(path + ": cannot open checkpoint: " + std::strerror(errno));
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof magic || std::memcmp(bytes.data(), magic, version_byte) != 0 ||
      (bytes[version_byte] != '1' && bytes[version_byte] != magic[version_byte]))
    throw io::input_error(path + ": not a butterfly checkpoint (bad magic bytes)");
  if (bytes.size() < sizeof magic + 8) throw io::input_error(path + ": checkpoint is truncated");
  const std::size_t body = bytes.size() - 8;
  std::uint64_t stored;
  std::memcpy(&stored, bytes.data() + body, 8);
  if (stored != crc(bytes.data(), body))
    throw io::input_error(path + ": checkpoint checksum mismatch (file truncated or corrupted)");

  decoder d(path, bytes.data() + sizeof magic, body - sizeof magic);
  checkpoint c;
  const auto args = d.pod<std::uint64_t>();
  for (std::uint64_t i = 0; i < args; ++i) c.arguments.push_back(d.text());
  c.seed = d.pod<std::uint64_t>();
  c.hyper.num_topics = static_cast<int>(d.pod<std::int64_t>());
  c.hyper.alpha = d.pod<double>();
  c.hyper.beta = d.pod<double>();
  c.method = d.text();
  c.corpus_checksum = d.pod<std::uint64_t>();
  c.s.iteration = d.pod<std::uint32_t>();
  c.s.theta = d.array<float>();
  c.s.phi = d.array<float>();
  c.s.z = d.array<std::int32_t>();
  if (bytes[version_byte] != '1') c.s.kept = d.array<std::uint16_t>();
  c.history = d.array<metrics_record>();
  if (!d.done()) throw io::input_error(path + ": checkpoint has trailing bytes");
  return c;
}

}  // namespace butterfly::lda
