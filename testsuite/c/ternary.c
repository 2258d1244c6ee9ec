/* adgen-test
head: ternary_mix(out)/(a b)
arg n: int = 8
arg a: double[n] = uniform(-2, 2)
arg b: double[n] = uniform(-2, 2)
arg out: double[n+1]
*/
/* The conditional operator: on active values, nested, as a call argument, as an lvalue
 * source through a pointer-valued ternary, and with an integer condition. */
#include <math.h>

void ternary_mix(int n, const double *a, const double *b, double *out)
{
    int i;
    double total = 0.0;
    for (i = 0; i < n; i++) {
        double hi = a[i] > b[i] ? a[i] : b[i];
        double lo = a[i] > b[i] ? b[i] : a[i];
        const double *src = (i % 3 == 0) ? a : b;
        double signed_sq = src[i] >= 0.0 ? src[i] * src[i] : -0.5 * src[i] * src[i];
        double band = hi > 1.0 ? 1.0 + log(hi) : (hi < -1.0 ? -1.0 : hi);
        out[i] = signed_sq + band * lo + sqrt(hi > 0.0 ? 1.0 + hi : 1.0 - hi);
        total += (i & 1) ? out[i] : 2.0 * out[i];
    }
    out[n] = total;
}
