/* adgen-test
head: heat_implicit(u)/(u cond)
arg n: int = 7
arg nsteps: int = 4
arg u: double[n] = uniform(0, 1)
arg cond: double[n+1] = uniform(0.5, 1.5)
*/
/* Backward-Euler heat equation on a 1-D rod with a variable conductivity at the n+1 cell
 * faces and fixed (zero) Dirichlet ends.  Each step builds a tridiagonal system and solves
 * it with the Thomas algorithm; the old and new temperature buffers are swapped by
 * pointer, and scratch for the sweep is malloc'd once and reused. */
#include <stdlib.h>

static void thomas(int n, const double *a, const double *b, const double *c,
                   const double *d, double *cp, double *x)
{
    double *dp = x;     /* the modified right-hand side is built in x itself */
    int i;
    cp[0] = c[0] / b[0];
    dp[0] = d[0] / b[0];
    for (i = 1; i < n; i++) {
        double m = b[i] - a[i] * cp[i - 1];
        cp[i] = c[i] / m;
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
    }
    for (i = n - 2; i >= 0; i--)
        x[i] = dp[i] - cp[i] * x[i + 1];
}

void heat_implicit(int n, int nsteps, double *u, const double *cond)
{
    const double r = 0.4;   /* dt / dx^2 */
    double *lo = malloc(4 * (size_t)n * sizeof(double));
    double *di = lo + n, *up = di + n, *cp = up + n;
    double *cur = malloc((size_t)n * sizeof(double));
    double *nxt = malloc((size_t)n * sizeof(double));
    int i, s;

    for (i = 0; i < n; i++) {
        lo[i] = -r * cond[i];
        up[i] = -r * cond[i + 1];
        di[i] = 1.0 + r * (cond[i] + cond[i + 1]);
        cur[i] = u[i];
    }
    for (s = 0; s < nsteps; s++) {
        double *tmp;
        thomas(n, lo, di, up, cur, cp, nxt);
        tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    for (i = 0; i < n; i++)
        u[i] = cur[i];
    free(lo);
    free(cur);
    free(nxt);
}
