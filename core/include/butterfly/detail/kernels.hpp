// Every draw algorithm's kernel type (basic, transposed, butterfly, warp_scan), for the one
// switch from the public enum to them (executor_of.hpp).
#pragma once

#include "butterfly/detail/draw_basic.hpp"
#include "butterfly/detail/draw_butterfly.hpp"
#include "butterfly/detail/draw_transposed.hpp"
#include "butterfly/detail/draw_warp_scan.hpp"
