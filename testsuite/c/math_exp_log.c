/* adgen-test
head: exp_log_terms(y)/(x p)
arg n: int = 6
arg x: double[n] = uniform(0.2, 3)
arg p: double = uniform(0.5, 2.5)
arg y: double[5*n]
*/
/* sqrt, exp, log, log10 and pow in its forms: active base with an active exponent, a
 * constant integer exponent, a constant fractional exponent, a constant base. */
#include <math.h>

void exp_log_terms(int n, const double *x, double p, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        double v = x[i];
        y[5 * i + 0] = sqrt(v) + exp(-v);
        y[5 * i + 1] = log(v) * log10(1.0 + v);
        y[5 * i + 2] = pow(v, p);
        y[5 * i + 3] = pow(v, 3) + pow(v, 0.5) - pow(v, -2.0);
        y[5 * i + 4] = pow(2.0, v * p) + exp(log(v) / p);
    }
}
