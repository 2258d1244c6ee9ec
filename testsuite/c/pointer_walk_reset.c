/* adgen-test
head: two_passes(out)/(x)
arg n: int = 3
arg l: int = 4
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[n*l]
*/
/* One local pointer walks the rows of `out` in two loops, set back to the start between
 * them; the second loop reads what the first wrote. `out` is a pure output whose values
 * are read, so its seed must be consumed over all n*l elements: adgen must find that
 * length from the walks (the union of what each covers), not refuse for want of --size. */
#include <math.h>

void two_passes(int n, int l, const double *x, double *out)
{
    double *p = out;
    int k, i;
    for (k = 0; k < l; k++) {
        for (i = 0; i < n; i++)
            p[i] = x[i] * x[i] * (k + 1);
        p += n;
    }
    p = out;
    for (k = 0; k < l; k++) {
        for (i = 0; i < n; i++)
            p[i] = sin(p[i]) * x[i];
        p += n;
    }
}
