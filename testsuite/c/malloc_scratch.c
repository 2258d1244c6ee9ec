/* adgen-test
head: standardize(z)/(x)
arg n: int = 6
arg d: int = 3
arg x: double[n*d] = uniform(-2, 2)
arg z: double[n*d]
*/
/* Column standardization of an n x d data matrix with heap scratch arrays: calloc'd
 * accumulators for the means, a malloc'd array for the standard deviations, both freed. */
#include <math.h>
#include <stdlib.h>

void standardize(int n, int d, const double *x, double *z)
{
    double *mean = calloc((size_t)d, sizeof(double));
    double *sdev = malloc((size_t)d * sizeof(double));
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < d; j++)
            mean[j] += x[i * d + j] / n;
    for (j = 0; j < d; j++) {
        double v = 0.0;
        for (i = 0; i < n; i++)
            v += (x[i * d + j] - mean[j]) * (x[i * d + j] - mean[j]);
        sdev[j] = sqrt(v / (n - 1) + 1e-8);
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < d; j++)
            z[i * d + j] = (x[i * d + j] - mean[j]) / sdev[j];
    free(mean);
    free(sdev);
}
