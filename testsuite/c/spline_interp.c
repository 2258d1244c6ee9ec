/* adgen-test
head: spline_eval(y)/(knots_y query)
arg m: int = 8
arg knots_x: double[m] = {0.0, 0.5, 1.2, 2.0, 2.6, 3.5, 4.1, 5.0}
arg knots_y: double[m] = uniform(-1, 1)
arg n: int = 6
arg query: double[n] = uniform(0.1, 4.9)
arg y: double[n]
sizes: give
*/
/* The lengths are given (--size) because knots_y is indexed through a binary search, which bounds no index adgen can see:
 * adgen sets the gradient of every element it sees read, the user names the rest. */
/* Cubic Hermite (Catmull-Rom style) interpolation: a binary search in a while loop finds
 * the interval of each query point; slopes by finite differences of the knot values. */
static int find_interval(int m, const double *xs, double t)
{
    int lo = 0, hi = m - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (xs[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static double slope(int m, const double *xs, const double *ys, int i)
{
    if (i == 0)
        return (ys[1] - ys[0]) / (xs[1] - xs[0]);
    if (i == m - 1)
        return (ys[m - 1] - ys[m - 2]) / (xs[m - 1] - xs[m - 2]);
    return (ys[i + 1] - ys[i - 1]) / (xs[i + 1] - xs[i - 1]);
}

void spline_eval(int m, const double *knots_x, const double *knots_y, int n,
                 const double *query, double *y)
{
    int q;
    for (q = 0; q < n; q++) {
        int i = find_interval(m, knots_x, query[q]);
        double h = knots_x[i + 1] - knots_x[i];
        double t = (query[q] - knots_x[i]) / h;
        double t2 = t * t, t3 = t2 * t;
        double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t;
        double h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
        y[q] = h00 * knots_y[i] + h10 * h * slope(m, knots_x, knots_y, i)
             + h01 * knots_y[i + 1] + h11 * h * slope(m, knots_x, knots_y, i + 1);
    }
}
