/* adgen-test
head: interp(interp)/(ys t)
arg n: int = 6
arg xs: double[n] = {0, 0.5, 1.25, 1.5, 2.5, 3}
arg ys: double[n]
arg t: double = 1.4
head: locate_all(out)/(ys ts)
arg n: int = 5
arg xs: double[n] = {-1, -0.25, 0.5, 0.75, 2}
arg ys: double[n]
arg m: int = 4
arg ts: double[m] = {-0.5, 0.1, 0.6, 1.9}
arg out: double[m]
*/
/* Piecewise-linear interpolation in a table found by bisection. lo and hi start at 0 and
 * n - 1, and each step moves one of them to their mean: all three stay in [0, n - 1], so
 * xs and ys have n elements. adgen gave them none ("array xs: no length known: give one
 * with --size"). */

double interp(int n, const double *xs, const double *ys, double t)
{
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (xs[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double w = (t - xs[lo]) / (xs[hi] - xs[lo]);
    return (1 - w) * ys[lo] + w * ys[hi];
}

/* the same search written with a shift, for each of m points */
void locate_all(int n, const double *xs, const double *ys, int m, const double *ts,
                double *out)
{
    for (int k = 0; k < m; k++) {
        int a = 0, b = n - 1, c;
        do {
            c = (a + b) >> 1;
            if (ts[k] < xs[c])
                b = c;
            else
                a = c;
        } while (b - a > 1);
        double s = (ts[k] - xs[a]) / (xs[b] - xs[a]);
        out[k] = ys[a] + s * (ys[b] - ys[a]) * ts[k];
    }
}
