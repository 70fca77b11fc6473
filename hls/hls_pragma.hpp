// HLS pragmas without compiler warnings.
//
// An HLS tool (Vitis HLS, Catapult, Bambu) defines __SYNTHESIS__ and reads
// `#pragma HLS ...`; GCC and Clang would warn about an unknown pragma, and
// warnings are errors in this project. COLLNET_HLS(PIPELINE II=1) expands to
// `#pragma HLS PIPELINE II=1` under synthesis and to nothing otherwise.
#pragma once

#if defined(__SYNTHESIS__)
#define COLLNET_HLS_PRAGMA_TEXT(text) _Pragma(#text)
#define COLLNET_HLS(...) COLLNET_HLS_PRAGMA_TEXT(HLS __VA_ARGS__)
#else
#define COLLNET_HLS(...)
#endif
