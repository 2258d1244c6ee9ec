/* regress: a checkpointed loop under a branch of the head that gcc -O3 proves never taken (pow(1 + t*t, 2) >= 1, t a constant): the kept states' pointer, set by the forward sweep under the branch, is then null as gcc sees it where the backward sweep restores from it under the same branch recorded (gcc cannot tell it is never taken there), and gcc refused the memcpy (-Werror=nonnull) */
/* adgen-test
head: relax(y z)/(x z a)
arg n: int = 9
arg x: double[n] = uniform(0, 1)
arg z: double[n] = uniform(-1, 1)
arg a: double = 0.3
arg y: double[n]
sizes: give
*/
#include <math.h>

void relax(int n, const double *x, double *z, double a, double *y)
{
    int i, l;
    double c = sqrt(2.0 + atan(3.0) * atan(3.0));
    for (i = 0; i < n; i++)
        y[i] = x[i] * a;
    if (y[0] > a) {
        y[1] = y[1] * c;
    } else {
        if (pow(1.0 + tanh(c) * tanh(c), 2.0) < 0.5) {
#pragma adgen binomial_ckp(n / 2, 2, 0)
            for (l = n - 1; l >= 1; l = l - 2) {
                z[l - 1] = 0.5 * z[l - 1] + 0.25 * sin(z[l] + y[l]);
                z[l] = tanh(z[l - 1] * x[l]);
            }
        }
    }
    for (i = 0; i < n; i++)
        y[i] += z[i] * z[(i + 1) % n] + sin(z[i]);
}
