/* regress: a passive input array passed to a helper that also gets an active one (adgen: cannot size 'c', 'u is used recursively' though nothing recurses); minimized fuzz case */
/* adgen-test
head: fz_head(y)/(x a)
arg n: int = 3
arg d: int = 4
arg a: double = uniform(-1, 1)
arg y: double[n*d]
arg x: double[n] = uniform(0.2, 1.5)
arg c: double[n]
tol: 1e-5
seed: 47
*/
#include <math.h>

double fz_f1(const double *u)
{
    int i;
    double sink = 0.0;
    const double *p1 = &u[1];
    for (i = 2 - 1; i >= 0; i--) {
        double s1 = p1[(i + i) % 2];
        sink += s1;
    }
    return sink;
}

void fz_head(int n, int d, double a, double *y, const double *x, const double *c)
{
    double sink = 0.0;
    for (int i = 0; i < n * d; i++) {
        y[i] = 0.0;
    }
    if (!(((x[1] * (-0.5) < a) ? 0.75 : x[0]) >= cos(y[6]))) {
        a = fz_f1(c);
        double s1 = fz_f1(x);
        sink += s1;
    }
    y[0] += sink;
}
