/* adgen-test
head: fluxes(f)/(u)
arg n: int = 12
arg u: double[12] = uniform(-1, 1)
arg f: double[12]
sizes: give
*/
/* `?:` whose branches have side effects (written for this project): an upwind flux picks
 * the limiter call of the side the wind comes from, a post-increment walks the cells in
 * one branch only, and the number of limited cells (an integer counter incremented in a
 * branch) scales the result. Each branch's calls and increments run only when it is
 * taken, as C says. */
#include <math.h>

static double minmod(double a, double b)
{
    return a * b <= 0.0 ? 0.0 : (fabs(a) < fabs(b) ? a : b);
}

static double limited(const double *u, int i, int *count)
{
    (*count)++;
    return u[i] + 0.5 * minmod(u[i] - u[i - 1], u[i + 1] - u[i]);
}

void fluxes(int n, const double *u, double *f)
{
    int i = 1, count = 0, last;
    f[0] = 0.0;
    while (i < n - 1) {
        double w = 0.5 * (u[i] + u[i + 1]);
        double face = w > 0.0 ? limited(u, i, &count) : u[i + 1] - 0.25 * sin(u[i]);
        f[i] = w * face;
        last = f[i] > 0.3 ? i++ : 0;      /* the increment runs in one branch only */
        if (last == 0)
            i++;
    }
    for (i = 0; i < n - 1; i++)
        f[n - 1] = (i % 3 == 0 ? exp(0.1 * u[i]) : u[i] * u[i]) + (count > 2 ? f[n - 1] : 0.0);
    f[n - 1] = f[n - 1] * (count > 0 ? (double)count : 1.0);
}
