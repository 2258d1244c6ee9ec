/* adgen-test
head: float_stats(out)/(x)
arg n: int = 10
arg x: float[n] = uniform(-2, 2)
arg out: double[3]
tol: 2e-3
dot_tol: 1e-5
*/
/* float inputs, double accumulation: promotions float -> double in expressions, explicit
 * (double) casts, a float local and float-valued helper. */
#include <math.h>

static float squashf(float v)
{
    return v / (1.0f + fabsf(v));
}

void float_stats(int n, const float *x, double *out)
{
    double sum = 0.0, sq = 0.0, sq_mean;
    float peak = 0.0f;
    int i;
    for (i = 0; i < n; i++) {
        sum += x[i];
        sq += (double)x[i] * x[i];
        peak += squashf(x[i]) * (float)(i + 1);
    }
    sq_mean = sq / n;
    out[0] = sum / n;
    out[1] = sqrt(sq_mean - out[0] * out[0]);
    out[2] = peak;
}
