/* regress: a helper gets z[1] by value and overwrites z through an output pointer; the adjoint of z[1] (through y[3] -= beta) must survive the reset of z's adjoint (fz_head_b gave 0); minimized fuzz case */
/* adgen-test
head: fz_head(y z fz_head)/(z)
arg n: int = 6
arg z: double[n]
arg y: double[n]
tol: 1e-5
sizes: give
seed: 100
*/
#include <math.h>

void fz_f1(int m, double *o, double *w, double beta)
{
    for (int i = 0; i < m; i++) {
        o[i] = 0.5;
    }
    double *p1 = w + 3;
    p1[0] -= beta;
}

double fz_head(int n, double *z, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
    }
    fz_f1(n, z, y, z[1]);
    return 0.5;
}
