/* adgen-test
head: recursive_model(out)/(coef x)
arg deg: int = 5
arg coef: double[deg+1] = uniform(-1, 1)
arg x: double[4] = uniform(-1, 1)
arg out: double[3]
*/
/* Recursion as users write it: Horner's rule as a recursive function, a divide-and-conquer
 * (pairwise) sum with a depth parameter, and a recursive Chebyshev-like three-term
 * evaluation. */
#include <math.h>

/* c[k] + x * (c[k+1] + x * (...)) */
static double horner_rec(const double *c, int k, int deg, double x)
{
    if (k == deg)
        return c[k];
    return c[k] + x * horner_rec(c, k + 1, deg, x);
}

/* pairwise sum of f(v[i]) over [lo, hi), splitting until depth runs out */
static double tree_sum(const double *v, int lo, int hi, int depth)
{
    int mid, i;
    double s = 0.0;
    if (depth == 0 || hi - lo <= 1) {
        for (i = lo; i < hi; i++)
            s += sin(v[i]) * v[i];
        return s;
    }
    mid = lo + (hi - lo) / 2;
    return tree_sum(v, lo, mid, depth - 1) + tree_sum(v, mid, hi, depth - 1);
}

/* T_n(x) by the recurrence, written recursively on (T_{n-1}, T_{n-2}) pairs */
static void cheb_pair(int n, double x, double *tn, double *tnm1)
{
    double a, b;
    if (n == 1) {
        *tn = x;
        *tnm1 = 1.0;
        return;
    }
    cheb_pair(n - 1, x, &a, &b);
    *tn = 2.0 * x * a - b;
    *tnm1 = a;
}

void recursive_model(int deg, const double *coef, const double *x, double *out)
{
    double t, tm1;
    out[0] = horner_rec(coef, 0, deg, x[0]);
    out[1] = tree_sum(coef, 0, deg + 1, 3) * x[1];
    cheb_pair(deg, x[2], &t, &tm1);
    out[2] = t * coef[0] + tm1 * x[3];
}
