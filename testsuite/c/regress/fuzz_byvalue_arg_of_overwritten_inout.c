/* regress: z[3] passed by value to a helper that overwrites all of z through a pointer and stores the value in z[0]; the adjoint of z[3] must come from z[0]'s seed after z's adjoint is reset (fz_head_b gave a wrong zb[3]); minimized fuzz case */
/* adgen-test
head: fz_head(y z)/(z)
arg n: int = 4
arg y: double[n]
arg z: double[n]
tol: 1e-5
sizes: give
seed: 227
*/
#include <math.h>

void fz_f3(int m, double alpha, double *o)
{
    double sink = 0.0;
    for (int i = 0; i < m; i++) {
        o[i] = 0.0;
    }
    sink += alpha;
    o[0] = sink;
}

void fz_head(int n, double *y, double *z)
{
    for (int i = 0; i < n; i++) {
        y[i] = 0.0;
    }
    fz_f3(n, z[3], z);
}
