// butterfly-lane-utilization: useful lane-steps / all lane-steps of the master-index loop
// (a warp runs as long as its longest document) on the real corpora, for every supported
// width, with documents in file order and with warp packing. Exact counts, not timings.
#include <iomanip>
#include <iostream>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/warp_plan.hpp"
#include "corpus.hpp"

int main() {
  using namespace butterfly;
  try {
    std::cout
        << "corpus     documents    tokens   slots  W  file_order  packed  packed_keep_lanes\n";
    for (const char* name : {"ap", "wiki-lead"}) {
      const auto c = bench::read_docword(name);
      for (int W : supported_widths()) {
        const auto plan = detail::make_warp_plan(c.doc_offsets, W, false);
        const auto kept = detail::make_warp_plan(c.doc_offsets, W, true);
        std::cout << std::left << std::setw(10) << name << std::right << std::setw(10) << c.M()
                  << std::setw(10) << c.N() << std::setw(8) << plan.doc.size() << std::setw(3) << W
                  << std::fixed << std::setprecision(4) << std::setw(12)
                  << detail::lane_utilization(c.doc_offsets, W) << std::setw(8)
                  << detail::lane_utilization(plan, W) << std::setw(10)
                  << detail::lane_utilization(kept, W) << '\n';
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "butterfly-lane-utilization: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
