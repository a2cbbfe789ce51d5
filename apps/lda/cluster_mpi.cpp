// cluster for the build with -DBUTTERFLY_MPI=ON: the ranks of MPI_COMM_WORLD.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cluster.hpp"

namespace butterfly::app {
namespace {

// Only the main thread calls MPI; the host_parallel_for threads never do.
struct session {
  session() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  ~session() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
};

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype mpi_type<std::int32_t>() {
  return MPI_INT32_T;
}
template <>
MPI_Datatype mpi_type<std::int64_t>() {
  return MPI_INT64_T;
}
template <>
MPI_Datatype mpi_type<std::uint16_t>() {
  return MPI_UINT16_T;
}

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw std::runtime_error(std::string(what) +
                           " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

}  // namespace

cluster::cluster() {
  static session s;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

const cluster& cluster::world() {
  static const cluster c;
  return c;
}

void cluster::sum(std::int32_t* data, std::size_t n) const {
  // MPI counts are int: large arrays go in pieces.
  constexpr std::size_t piece = std::size_t{1} << 30;
  for (std::size_t i = 0; i < n; i += piece)
    check(MPI_Allreduce(MPI_IN_PLACE, data + i, static_cast<int>(std::min(piece, n - i)),
                        MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce of the word-topic counts");
}

template <class T>
std::vector<T> cluster::gather(const std::vector<T>& local) const {
  const auto mine = static_cast<long long>(local.size());
  std::vector<long long> sizes(root() ? static_cast<std::size_t>(size_) : 0);
  check(MPI_Gather(&mine, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD),
        "MPI_Gather");
  std::vector<int> counts, displacements;
  long long total = 0;
  for (long long s : sizes) {
    counts.push_back(static_cast<int>(s));
    displacements.push_back(static_cast<int>(total));
    total += s;
  }
  // Every rank must learn whether the gather can go ahead, or the others would hang in it.
  int fits = total <= INT_MAX;
  check(MPI_Bcast(&fits, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  if (!fits)
    throw std::runtime_error("cannot gather " + std::to_string(total) +
                             " values on rank 0: MPI_Gatherv takes at most 2^31 - 1");
  std::vector<T> all(static_cast<std::size_t>(total));
  check(MPI_Gatherv(local.data(), static_cast<int>(mine), mpi_type<T>(), all.data(), counts.data(),
                    displacements.data(), mpi_type<T>(), 0, MPI_COMM_WORLD),
        "MPI_Gatherv");
  return all;
}

template std::vector<double> cluster::gather(const std::vector<double>&) const;
template std::vector<float> cluster::gather(const std::vector<float>&) const;
template std::vector<std::int32_t> cluster::gather(const std::vector<std::int32_t>&) const;
template std::vector<std::int64_t> cluster::gather(const std::vector<std::int64_t>&) const;
template std::vector<std::uint16_t> cluster::gather(const std::vector<std::uint16_t>&) const;

void cluster::abort(int code) const {
  if (size_ == 1) return;
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
}

}  // namespace butterfly::app
