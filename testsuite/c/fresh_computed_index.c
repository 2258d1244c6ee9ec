/* adgen-test
head: kept(kept)/(x)
arg n: int = 8
arg x: double[n] = uniform(0, 1)
arg idx: int[8] = {3, 0, 6, 1, 7, 2, 5, 4}
*/
/* Writes at indices no polynomial of the loop counters gives, into fresh memory: a block
 * allocated in each iteration and filled at a running position, and a local array filled
 * through a permutation then updated in place (whose old values the update's adjoint
 * reads). Nothing the first writes overwrite is saved. */
#include <stdlib.h>

double kept(int n, const double *x, const int *idx)
{
    double s = 0.0;
    int it, i, pos;
    for (it = 0; it < 3; it++) {
        double *t = malloc((size_t)n * sizeof(double));
        pos = 0;
        for (i = 0; i < n; i++)
            if (x[i] > 0.3) {
                t[pos] = x[i] * (it + 1);
                pos = pos + 1;
            }
        for (i = 0; i < pos; i++)
            s = s + t[i] * t[i] * x[i];
        free(t);
    }
    double u[8];
    for (i = 0; i < n && i < 8; i++)
        u[idx[i]] = x[i];
    for (i = 0; i < n && i < 8; i++)
        u[idx[i]] = u[idx[i]] * x[i];
    return s + u[0] * u[1] + u[6] * u[7];
}
