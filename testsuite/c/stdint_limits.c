/* adgen-test
head: quantized_energy(quantized_energy)/(x)
arg n: int = 5
arg x: double[n] = uniform(0.1, 0.9)
*/
/* <stdint.h> as embedded code uses it: exact-width and pointer-sized integer types and the
 * limit and constant macros (UINT16_MAX, INT32_MAX, SIZE_MAX, INT64_C). adgen's own header
 * lacked the macros and intptr_t (an undeclared identifier, or a syntax error). */
#include <stdint.h>
#include <stddef.h>

static double scaled(double v, uint16_t full)
{
    return v * (double)full / (double)UINT16_MAX;
}

double quantized_energy(int n, const double *x)
{
    int64_t big = INT64_C(1) << 40;
    int32_t cap = INT32_MAX;
    uintptr_t stride = 1;
    size_t limit = SIZE_MAX;
    double e = 0.0;
    int i;
    for (i = 0; i < n && (size_t)i < limit && i < cap; i += (int)stride) {
        uint16_t level = (uint16_t)(1000 + 37 * i);
        e += scaled(x[i], level) * x[i] + (double)(big >> 38) * x[i];
    }
    return e;
}
