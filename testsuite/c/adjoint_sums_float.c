/* adgen-test
head: weighted(out)/(f x)
arg n: int = 9
arg f: float[2] = uniform(0.5, 1.5)
arg x: float[n] = uniform(-1, 1)
arg out: float[1]
tol: 2e-3
dot_tol: 1e-5
*/
/* Float sums whose adjoints adgen adds up in two parts: the adjoints of the scales f[0]
 * and f[1] sum over the loop, in float. Finite differences in float are coarse, hence the
 * relaxed tolerances. */
#include <math.h>

void weighted(int n, const float *f, const float *x, float *out)
{
    float t = 0.0f;
    int i;
    for (i = 0; i < n; i++)
        t += f[0] * x[i] + f[1] * sinf(x[i]);
    out[0] = t * t;
}
