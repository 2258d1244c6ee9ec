/* adgen-test
head: blocked_norms(out)/(a)
arg n: int = 10
arg a: double[n] = uniform(-1, 1)
arg out: double[3]
flags: -I include -DBLOCK=3
*/
/* Code written for gcc: a header with #pragma once, __attribute__ macros, __restrict__,
 * `#pragma GCC ivdep` on a loop, a block size chosen by a -D flag with #ifndef default,
 * #if/#else selecting a variant, and an unused-parameter attribute. */
#include "kernels_gnu.h"

#define USE_STABLE_NORM 1

static double block_sum(const double *RESTRICT p, int len, int UNUSED tag)
{
    double s = 0.0;
    int i;
#pragma GCC ivdep
    for (i = 0; i < len; i++)
        s += sq(p[i]);
    return s;
}

void blocked_norms(int n, const double *restrict a, double *restrict out)
{
    double total = 0.0, maxblk = 0.0;
    int b;
    for (b = 0; b < n; b += BLOCK) {
        int len = n - b < BLOCK ? n - b : BLOCK;
        double s = block_sum(a + b, len, b);
        total += s;
        maxblk += exp(s);
    }
#if USE_STABLE_NORM
    out[0] = sqrt(total + 1e-300);
#else
    out[0] = sqrt(total);
#endif
    out[1] = log(maxblk);
    out[2] = total / n;
}
