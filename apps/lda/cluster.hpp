// The processes a training run is spread over: the ranks of MPI_COMM_WORLD when the
// program is built with -DBUTTERFLY_MPI=ON (cluster_mpi.cpp), otherwise one process
// (cluster_single.cpp). train.cpp is written once against this; with one process every
// operation is the identity, so the single-process run takes the same code path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace butterfly::app {

class cluster {
 public:
  // The processes of this run; the first call initialises MPI (finalised at exit).
  static const cluster& world();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  // Element-wise sum over all processes, in place, on every process (MPI_Allreduce).
  void sum(std::int32_t* data, std::size_t n) const;
  // Every process's `local`, concatenated in rank order, on the root (MPI_Gatherv); empty
  // on the other processes. Defined for double, float, std::int32_t, std::int64_t and
  // std::uint16_t.
  template <class T>
  std::vector<T> gather(const std::vector<T>& local) const;

  // Ends the whole job with exit code `code` when there are other processes (MPI_Abort:
  // a process that fails while the others wait in a collective must not hang them);
  // returns when this is the only process.
  void abort(int code) const;

 private:
  cluster();
  int rank_ = 0, size_ = 1;
};

}  // namespace butterfly::app
