/* regress: a local array that a pointer points into lives on the heap between the sweeps; it is overwritten after its first values are read nonlinearly, so the backward sweep needs them back: reads through the heap pointer must count as reads of the array */
/* adgen-test
head: fz_head(y)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
tol: 1e-6
sizes: give
seed: 3
*/
#include <math.h>

static double helper(const double *v)
{
    double t[4];
    double *p = t + 1;
    double s;
    int i;
    for (i = 0; i < 4; i++)
        t[i] = v[i];
    s = t[1] * t[2];
    for (i = 0; i < 4; i++)
        t[i] = sin(v[i + 1]);
    s += p[0] * t[3];
    return s;
}

void fz_head(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i];
    y[0] = helper(x) * y[1];
    y[1] = y[1] * helper(y);
}
