/* regress: a call statement that discards the double returned by an active helper (adgen --forward: internal: active result discarded); minimized fuzz case */
/* adgen-test
head: fz_head(y z)/(z)
arg n: int = 5
arg z: double[n]
arg y: double[n]
tol: 1e-5
seed: 8
*/
#include <math.h>

double fz_f1(double alpha, const double *u)
{
    alpha = alpha;
    return u[1];
}

double fz_f3(int m, const double *u)
{
    int i;
    int j;
    double sink = 0.0;
    for (i = 2; i < 5; i++) {
        for (j = 1; j < m; j += 2) {
            fz_f1(0.5 * i, u);
            double s1 = fz_f1(0.4 * (((j < 4) ? 0.3 : 2.0) * (u[j] + 0.75)), u);
            sink += s1;
        }
    }
    return sink;
}

void fz_head(int n, double *z, double *y)
{
    for (int i = 0; i < n; i++) {
        y[i] = 0.3;
    }
    y[4] *= fz_f3(n, z);
}
