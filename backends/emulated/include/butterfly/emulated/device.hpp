// Device-resident API of the emulated device (BACKEND=emulated): butterfly::emulated::, used
// exactly like butterfly/cuda/device.hpp, with device_buffer memory that host code cannot
// touch outside a launch (butterfly/emulated/device_memory.hpp says what is enforced).
#pragma once

#define BUTTERFLY_GPU_NS emulated
#define BUTTERFLY_GPU_STREAM void*  // no streams: every launch runs to completion on the host
#include "butterfly/cuda_hip/device_api.hpp"
