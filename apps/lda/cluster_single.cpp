// cluster for the build without MPI: one process.
#include "cluster.hpp"

namespace butterfly::app {

cluster::cluster() = default;

const cluster& cluster::world() {
  static const cluster c;
  return c;
}

void cluster::sum(std::int32_t*, std::size_t) const {}

template <class T>
std::vector<T> cluster::gather(const std::vector<T>& local) const {
  return local;
}

template std::vector<double> cluster::gather(const std::vector<double>&) const;
template std::vector<float> cluster::gather(const std::vector<float>&) const;
template std::vector<std::int32_t> cluster::gather(const std::vector<std::int32_t>&) const;
template std::vector<std::int64_t> cluster::gather(const std::vector<std::int64_t>&) const;
template std::vector<std::uint16_t> cluster::gather(const std::vector<std::uint16_t>&) const;

void cluster::abort(int) const {}

}  // namespace butterfly::app
