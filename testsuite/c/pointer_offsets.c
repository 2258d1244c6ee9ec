/* adgen-test
head: kmeans_cost(cost)/(points centers)
arg n: int = 6
arg k: int = 3
arg d: int = 2
arg points: double[n*d] = uniform(-3, 3)
arg centers: double[k*d] = uniform(-3, 3)
arg cost: double[2]
*/
/* Soft k-means cost: helpers receive sub-arrays as &x[i*d] and x + j*d.  The squared
 * distances go through a scratch row written by a helper at an offset. */
#include <math.h>

static double sqdist(int d, const double *a, const double *b)
{
    double s = 0.0;
    int t;
    for (t = 0; t < d; t++)
        s += (a[t] - b[t]) * (a[t] - b[t]);
    return s;
}

static void distances(int k, int d, const double *x, const double *centers, double *row)
{
    int j;
    for (j = 0; j < k; j++)
        row[j] = sqdist(d, x, centers + j * d);
}

void kmeans_cost(int n, int k, int d, const double *points, const double *centers, double *cost)
{
    double row[16];
    int i, j;
    cost[0] = 0.0;
    cost[1] = 0.0;
    for (i = 0; i < n; i++) {
        double soft = 0.0, best = 1e300;
        distances(k, d, &points[i * d], centers, row);
        for (j = 0; j < k; j++) {
            soft += exp(-row[j]);
            if (row[j] < best)
                best = row[j];
        }
        cost[0] -= log(soft);
        cost[1] += best;
    }
}
