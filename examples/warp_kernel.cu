// butterfly::warp_draw inside your own GPU kernel. One source for CUDA (nvcc) and HIP
// (hipcc -x hip): butterfly::device_warp::warp picks the intrinsics by dialect. Each warp
// draws for W documents at a time, lane l for document q*W + l, as the paper's Algorithm 6
// does; a second kernel draws one index per row of a weight matrix. Compiled in CI (no GPU
// there, the resource report checked for spills); launch with blocks of whole warps, at
// most block_threads of them, and scratch for every warp of the grid.
//
// __launch_bounds__(block_threads): the butterfly keeps a[W] and c_warp[W] in registers,
// most of the 512 a lane can have on gfx90a (the library's product kernel: 256 VGPRs and
// 217 AGPRs) and close to NVIDIA's 255. Without the bound the compiler must fit blocks of
// 1024 threads and caps a lane at 128 registers on gfx90a: the product kernel below then
// spilled 544 VGPRs to scratch memory.
#include <butterfly/device_warp/warp.hpp>
#include <butterfly/warp_draw.hpp>

#include <cstdint>

namespace example {

constexpr int block_threads = 256;

// Where a translation unit is compiled for several AMD targets, the device pass builds
// only the kernel whose W is this target's wavefront (the host picks by warpSize).
template <int W>
__host__ __device__ constexpr bool this_target_has() {
#if defined(__HIP_DEVICE_COMPILE__)
  return W == __AMDGCN_WAVEFRONT_SIZE;
#else
  return true;
#endif
}

// z[t] for every token t of documents [0, M): offsets is CSR (M + 1 entries), theta M x K,
// phi V x K, row-major. scratch: warp_draw<...>::scratch_floats(K) floats per warp of the
// grid. u from the library's stream, so z equals butterfly::draw_topics's (same seed,
// width W, butterfly, first_token 0).
template <int W>
__global__ void __launch_bounds__(block_threads)
    draw_topics(const float* theta, const float* phi, int K, const std::int64_t* offsets,
                std::int64_t M, const std::int32_t* words, std::uint64_t seed, float* scratch,
                std::int32_t* z) {
  if constexpr (this_target_has<W>()) {
    using warp = butterfly::device_warp::warp<W>;
    using draw_t = butterfly::warp_draw<warp, butterfly::algorithm::butterfly>;
    const int lane = static_cast<int>(threadIdx.x) % W;
    const warp sg{lane};
    const std::int64_t warp_id =
        (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / W;
    const std::int64_t warps = gridDim.x * static_cast<std::int64_t>(blockDim.x) / W;
    float* const own_scratch = scratch + warp_id * draw_t::scratch_floats(K);
    // The loop bounds are the same on every lane of a warp, so all W lanes call every
    // collective together.
    for (std::int64_t q = warp_id; q * W < M; q += warps) {
      const std::int64_t m = q * W + lane < M ? q * W + lane : M - 1;  // padding: redo M-1
      const std::int64_t first = offsets[m];
      const std::int64_t count = q * W + lane < M ? offsets[m + 1] - first : 0;
      std::int64_t longest = count;  // the master index runs to the warp's longest document
      for (int d = W / 2; d > 0; d /= 2) {
        const std::int64_t other = sg.shuffle_xor(longest, d);
        longest = other > longest ? other : longest;
      }
      draw_t::cache_theta(sg, own_scratch, K, theta, m);
      for (std::int64_t i = 0; i < longest; ++i) {
        std::int64_t t = first + (i < count ? i : count - 1);
        t = t < 0 ? 0 : t;  // an empty first document: any real token, never written
        const float u = butterfly::token_uniforms(sg, seed, 0, static_cast<std::uint64_t>(t));
        const int k = draw_t::products(sg, own_scratch, K, theta, phi, m, words[t], u);
        if (i < count) z[t] = k;
      }
    }
  }
}

// out[r] = a draw from row r of weights (R x K), like torch.multinomial(weights, 1).
template <int W>
__global__ void __launch_bounds__(block_threads)
    draw_rows(const float* weights, int K, std::int32_t R, const float* u, float* scratch,
              std::int32_t* out) {
  if constexpr (this_target_has<W>()) {
    using warp = butterfly::device_warp::warp<W>;
    using draw_t = butterfly::warp_draw<warp>;
    const int lane = static_cast<int>(threadIdx.x) % W;
    const warp sg{lane};
    const std::int64_t warp_id =
        (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / W;
    const std::int64_t warps = gridDim.x * static_cast<std::int64_t>(blockDim.x) / W;
    float* const own_scratch = scratch + warp_id * draw_t::scratch_floats(K);
    for (std::int64_t q = warp_id; q * W < R; q += warps) {
      const std::int64_t r = q * W + lane;
      const std::int32_t row = static_cast<std::int32_t>(r < R ? r : R - 1);
      const int k = draw_t::rows(sg, own_scratch, K, weights, row, u[row]);
      if (r < R) out[r] = k;
    }
  }
}

// Host side: the kernels for the warp width of the device (32 on NVIDIA and RDNA, 64 on
// CDNA). blocks * threads_per_block / warp_size warps, each with its own scratch;
// threads_per_block a multiple of warp_size, at most block_threads.
void launch_draw_topics(int warp_size, int blocks, int threads_per_block, const float* theta,
                        const float* phi, int K, const std::int64_t* offsets, std::int64_t M,
                        const std::int32_t* words, std::uint64_t seed, float* scratch,
                        std::int32_t* z) {
#if defined(__HIP__)
  if (warp_size == 64) {
    draw_topics<64>
        <<<blocks, threads_per_block>>>(theta, phi, K, offsets, M, words, seed, scratch, z);
    return;
  }
#endif
  if (warp_size == 32)
    draw_topics<32>
        <<<blocks, threads_per_block>>>(theta, phi, K, offsets, M, words, seed, scratch, z);
}

void launch_draw_rows(int warp_size, int blocks, int threads_per_block, const float* weights, int K,
                      std::int32_t R, const float* u, float* scratch, std::int32_t* out) {
#if defined(__HIP__)
  if (warp_size == 64) {
    draw_rows<64><<<blocks, threads_per_block>>>(weights, K, R, u, scratch, out);
    return;
  }
#endif
  if (warp_size == 32) draw_rows<32><<<blocks, threads_per_block>>>(weights, K, R, u, scratch, out);
}

}  // namespace example
