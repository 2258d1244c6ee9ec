/* adgen-test
head: mantissas(mantissas)/(x)
arg n: int = 5
arg x: float[n] = uniform(0.31, 0.44)
tol: 2e-3
dot_tol: 1e-5
*/
/* frexp and modf in single precision: frexpf's exponent and modff's integral part through
 * their pointers, the mantissa and the fractional part carrying the derivative. */
#include <math.h>

float mantissas(int n, const float *x)
{
    float s = 0.0f, whole = 0.0f;
    int i, e = 0;
    for (i = 0; i < n; i++) {
        float m = frexpf(x[i], &e);                   /* e = -1 */
        float f = modff(3.0f + x[i], &whole);         /* whole = 3 */
        s += m * (float)e + f * whole * m + nextafterf(x[i], 0.0f);
    }
    return s;
}
