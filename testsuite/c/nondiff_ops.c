/* adgen-test
head: table_lookup(y)/(t table)
arg m: int = 9
arg table: double[m] = uniform(-1, 1)
arg n: int = 6
arg t: double[n] = uniform(0, 7.9)
arg y: double[n+1]
sizes: give
*/
/* The lengths are given (--size) because table is indexed by a clamped value computed from data:
 * adgen sets the gradient of every element it sees read, the user names the rest. */
/* Non-differentiable operations steering differentiable ones: piecewise-linear table
 * interpolation with the cell index from floor() and an (int) cast, clamping by
 * comparisons, and an integer count of values above a threshold that scales the result
 * (constant between jumps). */
#include <math.h>

void table_lookup(int m, const double *table, int n, const double *t, double *y)
{
    int i, above = 0;
    double total = 0.0;
    for (i = 0; i < n; i++) {
        double pos = t[i];
        int k = (int)floor(pos);
        double frac;
        if (k < 0)
            k = 0;
        if (k > m - 2)
            k = m - 2;
        frac = pos - k;
        y[i] = (1.0 - frac) * table[k] + frac * table[k + 1];
        if (y[i] > 0.0)
            above++;
        total += y[i];
    }
    y[n] = total * (1.0 + above) / n;
}
