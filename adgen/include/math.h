/* adgen's view of <math.h>: prototypes for parsing; the output includes the real header. */
#ifndef ADGEN_MATH_H
#define ADGEN_MATH_H
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
extern const float INFINITY;
extern const float NAN;
extern const double HUGE_VAL;
extern const float HUGE_VALF;
#define ADGEN_F1(name) double name(double); float name##f(float); long double name##l(long double);
#define ADGEN_F2(name) double name(double, double); float name##f(float, float); long double name##l(long double, long double);
ADGEN_F1(sqrt) ADGEN_F1(exp) ADGEN_F1(exp2) ADGEN_F1(log) ADGEN_F1(log10) ADGEN_F1(log2)
ADGEN_F1(sin) ADGEN_F1(cos) ADGEN_F1(tan) ADGEN_F1(asin) ADGEN_F1(acos) ADGEN_F1(atan)
ADGEN_F1(sinh) ADGEN_F1(cosh) ADGEN_F1(tanh) ADGEN_F1(asinh) ADGEN_F1(acosh) ADGEN_F1(atanh)
ADGEN_F1(fabs) ADGEN_F1(floor) ADGEN_F1(ceil) ADGEN_F1(round) ADGEN_F1(trunc) ADGEN_F1(rint)
ADGEN_F1(nearbyint) ADGEN_F1(lgamma) ADGEN_F1(tgamma) ADGEN_F1(erf) ADGEN_F1(erfc)
ADGEN_F1(cbrt) ADGEN_F1(expm1) ADGEN_F1(log1p)
ADGEN_F2(pow) ADGEN_F2(atan2) ADGEN_F2(fmin) ADGEN_F2(fmax) ADGEN_F2(fmod) ADGEN_F2(hypot)
ADGEN_F2(copysign) ADGEN_F2(fdim) ADGEN_F2(remainder) ADGEN_F2(nextafter)
#undef ADGEN_F1
#undef ADGEN_F2
double ldexp(double, int); double frexp(double, int *); double modf(double, double *);
float ldexpf(float, int); float frexpf(float, int *); float modff(float, float *);
long double ldexpl(long double, int); long double frexpl(long double, int *);
long double modfl(long double, long double *);
int ilogb(double); int ilogbf(float); int ilogbl(long double);
/* POSIX's Bessel functions (no derivative rule: --inactive, or your own with --rules) */
double j0(double); double j1(double); double jn(int, double);
double y0(double); double y1(double); double yn(int, double);
long lroundf(float); long lroundl(long double); long lrintf(float); long lrintl(long double);
double fma(double, double, double); float fmaf(float, float, float);
long double fmal(long double, long double, long double);
long lround(double); long lrint(double);
int isnan(double); int isinf(double); int isfinite(double); int signbit(double);
#endif
