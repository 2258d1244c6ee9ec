/* adgen-test
head: fmix(out)/(x)
arg x: float[4] = uniform(0.5, 1.5)
arg out: float[2]
tol: 1e-2
dot_tol: 1e-4
*/
/* float inputs and outputs, accumulated in a long double, with the float functions of
 * math.h (sqrtf, fabsf, powf, expf) and M_PI. */
#define _XOPEN_SOURCE 700
#include <math.h>
void fmix(const float *x, float *out)
{
    long double acc = 0.0L;
    for (int i = 0; i < 4; i++)
        acc += (long double)x[i] * x[i];
    float r = sqrtf((float)acc);
    out[0] = fabsf(x[0] - x[1]) * r + (float)M_PI * x[2];
    out[1] = powf(x[3], 1.5f) + expf(-x[0]) * (float)acc;
}
