#include "butterfly/lda/checkpoint.hpp"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "butterfly/io/atomic_file.hpp"
#include "butterfly/io/error.hpp"

namespace butterfly::lda {
namespace {

constexpr char magic[8] = {'B', 'F', 'L', 'Y', 'C', 'K', 'P', '5'};
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
  void maybe(const std::optional<std::uint32_t>& v) {
    pod(static_cast<std::uint8_t>(v.has_value()));
    pod(v.value_or(0));
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
    if (n > 0)
      std::memcpy(v.data(), p_, v.size() * sizeof(T));  // an empty vector's data() may be null
    p_ += v.size() * sizeof(T);
    return v;
  }
  std::string text() {
    const auto chars = array<char>();
    return std::string(chars.begin(), chars.end());
  }
  std::optional<std::uint32_t> maybe() {
    const auto has = pod<std::uint8_t>();
    const auto v = pod<std::uint32_t>();
    return has ? std::optional<std::uint32_t>(v) : std::nullopt;
  }
  // A name `parse` knows, or io::input_error naming the file.
  template <class Parse>
  auto name(const char* what, Parse&& parse) {
    const std::string n = text();
    try {
      return parse(n);
    } catch (const std::invalid_argument&) {
      throw io::input_error(path_ + ": checkpoint names an unknown " + what + " '" + n + "'");
    }
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

void encode(encoder& e, const training_options& o) {
  e.pod(static_cast<std::int64_t>(o.hyper.num_topics));
  e.pod(o.hyper.alpha);
  e.pod(o.hyper.beta);
  e.pod(o.iterations);
  e.pod(o.seed);
  e.text(std::string(name(o.method)));
  e.pod(static_cast<std::int32_t>(o.width));
  e.text(estimator_name(o.estimator));
  e.pod(o.burn_in);
  e.maybe(o.start_topics);
  e.maybe(o.average);
  e.pod(o.sweep_blocks.value_or(1));
  e.pod(o.phased_sweeps.value_or(0));
  e.pod(o.holdout);
  e.pod(o.eval_every);
  e.pod(static_cast<std::int32_t>(o.fold_in_sweeps));
  e.pod(o.checkpoint_every);
  e.pod(static_cast<std::int32_t>(o.top_words));
}

// Format 4 is format 5 without phased_sweeps (its runs had none), format 3 format 4 without
// sweep_blocks (its runs had one block).
training_options decode_options(decoder& d, char format) {
  training_options o;
  o.hyper.num_topics = static_cast<int>(d.pod<std::int64_t>());
  o.hyper.alpha = d.pod<double>();
  o.hyper.beta = d.pod<double>();
  o.iterations = d.pod<std::uint32_t>();
  o.seed = d.pod<std::uint64_t>();
  o.method = d.name("algorithm", [](const std::string& n) { return parse_algorithm(n); });
  o.width = d.pod<std::int32_t>();
  o.estimator = d.name("estimator", [](const std::string& n) { return parse_estimator(n); });
  o.burn_in = d.pod<std::uint32_t>();
  o.start_topics = d.maybe();
  o.average = d.maybe();
  o.sweep_blocks = format == '3' ? 1 : d.pod<std::uint32_t>();
  o.phased_sweeps = format <= '4' ? 0 : d.pod<std::uint32_t>();
  o.holdout = d.pod<double>();
  o.eval_every = d.pod<std::uint32_t>();
  o.fold_in_sweeps = d.pod<std::int32_t>();
  o.checkpoint_every = d.pod<std::uint32_t>();
  o.top_words = d.pod<std::int32_t>();
  return o;
}

}  // namespace

void save_checkpoint(const std::string& path, const checkpoint& c,
                     const std::function<void()>& halfway) {
  encoder e;
  e.bytes.assign(magic, magic + sizeof magic);
  encode(e, c.options);
  e.text(c.corpus.format);
  e.text(c.corpus.path);
  e.text(c.corpus.vocab);
  e.text(c.corpus.stopwords);
  e.pod(static_cast<std::int32_t>(c.corpus.min_df));
  e.pod(c.corpus_checksum);
  e.pod(c.s.iteration);
  e.array(c.s.theta);
  e.array(c.s.phi);
  e.array(c.s.z);
  e.array(c.s.kept);
  e.array(c.history);
  e.pod(crc(e.bytes.data(), e.bytes.size()));
  io::write_atomic(
      path,
      [&](std::ostream& out) {
        const auto half = static_cast<std::streamsize>(e.bytes.size() / 2);
        out.write(e.bytes.data(), half);
        if (halfway) {
          out.flush();
          halfway();
        }
        out.write(e.bytes.data() + half, static_cast<std::streamsize>(e.bytes.size()) - half);
      },
      io::survives::power_loss);
}

checkpoint load_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::input_error(path + ": cannot open checkpoint: " + std::strerror(errno));
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof magic || std::memcmp(bytes.data(), magic, version_byte) != 0)
    throw io::input_error(path + ": not a butterfly checkpoint (bad magic bytes)");
  if (bytes[version_byte] == '1' || bytes[version_byte] == '2')
    throw io::input_error(
        path + ": checkpoint format " + bytes[version_byte] +
        " (it stored the command line's options) cannot be resumed by this version; start the "
        "run again");
  if (bytes[version_byte] != magic[version_byte] && bytes[version_byte] != '3' &&
      bytes[version_byte] != '4')
    throw io::input_error(path + ": checkpoint format " + bytes[version_byte] +
                          " is not one this version reads");
  if (bytes.size() < sizeof magic + 8) throw io::input_error(path + ": checkpoint is truncated");
  const std::size_t body = bytes.size() - 8;
  std::uint64_t stored;
  std::memcpy(&stored, bytes.data() + body, 8);
  if (stored != crc(bytes.data(), body))
    throw io::input_error(path + ": checkpoint checksum mismatch (file truncated or corrupted)");

  decoder d(path, bytes.data() + sizeof magic, body - sizeof magic);
  checkpoint c;
  c.options = decode_options(d, bytes[version_byte]);
  c.corpus.format = d.text();
  c.corpus.path = d.text();
  c.corpus.vocab = d.text();
  c.corpus.stopwords = d.text();
  c.corpus.min_df = d.pod<std::int32_t>();
  c.corpus_checksum = d.pod<std::uint64_t>();
  c.s.iteration = d.pod<std::uint32_t>();
  c.s.theta = d.array<float>();
  c.s.phi = d.array<float>();
  c.s.z = d.array<std::int32_t>();
  c.s.kept = d.array<std::uint16_t>();
  c.history = d.array<metrics_record>();
  if (!d.done()) throw io::input_error(path + ": checkpoint has trailing bytes");
  return c;
}

}  // namespace butterfly::lda
