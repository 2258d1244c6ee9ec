/* adgen-test
head: f(f)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
*/
/* Static locals named `b` and `d` (code built with every local static, as some
 * benchmark sources are with -DSTATIC): at file scope they must not take the names of
 * the derivative routines `f_b` and `f_d`. */
#include <math.h>

double f(int n, const double *x)
{
    static int i;
    static double b, d;
    b = 0.0;
    d = 1.0;
    for (i = 0; i < n; i++) {
        b += x[i] * x[i];
        d *= 1.0 + 0.1 * sin(x[i]);
    }
    return b * d;
}
