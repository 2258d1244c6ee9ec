/* adgen-test
head: float_terms(y)/(x s)
arg n: int = 6
arg x: float[n] = uniform(0.2, 2)
arg s: float = uniform(0.5, 1.5)
arg y: float[4*n]
tol: 2e-3
dot_tol: 1e-5
seed: 3
*/
/* Single precision throughout: float arrays and scalar, float literals and the float
 * variants of math.h (sinf cosf expf logf sqrtf powf tanhf atan2f hypotf fabsf fminf
 * fmaxf).  Finite differences in float are coarse, hence the relaxed tolerances. */
#include <math.h>

void float_terms(int n, const float *x, float s, float *y)
{
    int i;
    for (i = 0; i < n; i++) {
        float v = x[i];
        y[4 * i + 0] = sinf(v * s) + cosf(v) * expf(-0.5f * v);
        y[4 * i + 1] = logf(1.0f + v) * sqrtf(v) + powf(v, s);
        y[4 * i + 2] = tanhf(s * v - 1.0f) + atan2f(v, s) + hypotf(v, 1.0f);
        y[4 * i + 3] = fabsf(v - 1.0f) * s + fminf(v, s) + fmaxf(v * v, 0.5f);
    }
}
