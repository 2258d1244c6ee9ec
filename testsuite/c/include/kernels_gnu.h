#pragma once

#include <math.h>

#if defined(__GNUC__)
#define HOT __attribute__((hot))
#define UNUSED __attribute__((unused))
#define RESTRICT __restrict__
#else
#define HOT
#define UNUSED
#define RESTRICT
#endif

#ifndef BLOCK
#define BLOCK 4
#endif

static inline HOT double sq(double x) { return x * x; }
