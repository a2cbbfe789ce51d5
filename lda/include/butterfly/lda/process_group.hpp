// The processes a training run is spread over, as its caller connects them: the library holds
// no transport code (butterfly-lda implements this over MPI). The base class is one process,
// where every operation is the identity, so a single process takes the same code path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace butterfly::lda {

class process_group {
 public:
  virtual ~process_group() = default;

  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  bool root() const { return rank() == 0; }  // the process that writes files

  // Element-wise sum over all processes, in place, on every process (the word-topic counts).
  virtual void sum(std::int32_t* data, std::size_t n) const;
  // Every process's `local`, concatenated in rank order, on the root; empty elsewhere. Every
  // process calls each gather.
  virtual std::vector<double> gather(const std::vector<double>& local) const { return local; }
  virtual std::vector<float> gather(const std::vector<float>& local) const { return local; }
  virtual std::vector<std::int32_t> gather(const std::vector<std::int32_t>& local) const {
    return local;
  }
  virtual std::vector<std::int64_t> gather(const std::vector<std::int64_t>& local) const {
    return local;
  }
  virtual std::vector<std::uint16_t> gather(const std::vector<std::uint16_t>& local) const {
    return local;
  }
};

// The group of this process alone.
const process_group& this_process();

}  // namespace butterfly::lda
