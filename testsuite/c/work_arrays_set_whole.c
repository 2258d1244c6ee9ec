/* adgen-test
head: energy(energy)/(u)
arg n: int = 5
arg u: double[n] = uniform(0.2, 0.8)
*/
/* Work grids of constant size (480 KB each, in static memory) that loop nests compute
 * whole before anything reads them, and a small array filled only in part. The derivative
 * code does not clear what is set before it is read: neither the grids nor their tangents
 * are zeroed on entry; the adjoints, which the backward sweep adds into, and the
 * partly filled array are. */
#include <math.h>

#define NX 300
#define NY 200

double energy(int n, const double *u)
{
    double h[NX][NY], g[NX * NY], part[8];
    double e = 0.0;
    int i, j;
    for (i = NX - 1; i >= 0; i--)
        for (j = 0; j < NY; j++)
            h[i][j] = u[(i + j) % n];
    for (j = 1; j <= NY; j++)
        for (i = 1; i <= NX; i++)
            g[(i - 1) * NY + (j - 1)] = sin(h[i - 1][j - 1]) * h[i % NX][j - 1];
    for (i = 0; i < 3; i++)
        part[i] = g[i * 7] * u[i % n];
    for (i = 0; i < NX * NY; i++)
        e = e + 1e-4 * g[i] * g[i];
    return e + part[0] * part[2] + part[1];
}
