/* adgen-test
head: f(y f)/(x a)
arg n: int = 3
arg x: double[n]
arg a: double = uniform(0.5, 1.5)
arg y: double[n]
head: g(z)/(z w)
arg n: int = 4
arg z: double[n] = uniform(-2, 2)
arg w: double[n]
*/
/* A tiny program with hand-written derivatives in good/, used by tests/test_harness.py
   to check that the harness passes correct derivative code and catches wrong code. */
#include <math.h>

double f(int n, const double *x, double a, double *y)
{
    double s = 0;
    int i;
    for (i = 0; i < n; i++) {
        y[i] = a * sin(x[i]);
        s += x[i] * x[i];
    }
    return s * a;
}

void g(int n, double *z, const double *w)
{
    int i;
    for (i = 0; i < n; i++)
        z[i] = z[i] * z[i] + w[i];
}
