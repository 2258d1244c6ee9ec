/* adgen-test
head: polar_stats(xy stats)/(r theta)
arg n: int = 6
arg r: double[n] = uniform(0.5, 2)
arg theta: double[n] = uniform(-3, 3)
arg xy: double[2*n]
arg stats: double[4]

*/
/* Several dependents: Cartesian coordinates of points given in polar form, plus the
 * centroid and the mean and variance of the radii, as two output arrays.
 * With `sizes: infer`, adgen must find the extents of the arrays by itself. */
#include <math.h>

void polar_stats(int n, const double *r, const double *theta, double *xy, double *stats)
{
    double cx = 0.0, cy = 0.0, mean = 0.0, var = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        xy[2 * i] = r[i] * cos(theta[i]);
        xy[2 * i + 1] = r[i] * sin(theta[i]);
        cx += xy[2 * i] / n;
        cy += xy[2 * i + 1] / n;
        mean += r[i] / n;
    }
    for (i = 0; i < n; i++)
        var += (r[i] - mean) * (r[i] - mean) / (n - 1);
    stats[0] = cx;
    stats[1] = cy;
    stats[2] = mean;
    stats[3] = var;
}
