/* adgen-test
head: adjoint_sums(out)/(a l x w)
arg n: int = 7
arg a: double[n*n] = uniform(-0.4, 0.4)
arg l: double[n*(n-1)/2] = uniform(-0.4, 0.4)
arg x: double[n] = uniform(0.5, 1.5)
arg w: double = 0.7
arg out: double[1]
*/
/* Backward loops that add one term per iteration to the same adjoint, which adgen sums in
 * two parts: a packed triangular product (odd and even column lengths), a strided loop
 * starting past zero, a while loop, and a sum into the adjoint of the head's by-value
 * scalar (adjoint_sums_float.c: a float sum). Next to them, loops whose sums must stay in
 * place: the adjoint they add to is read in the loop (directly, or through an alias), or
 * another sum of the loop cannot be split. */
#include <math.h>

/* y = L x, L unit lower triangular, packed column by column */
static void lower(int n, const double *l, const double *x, double *y)
{
    int i, j, c = 0;
    for (i = 0; i < n; i++)
        y[i] = x[i];
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            y[j] += l[c] * x[i];
            c++;
        }
}

/* y = A x, row by row */
static void matvec(int n, const double *a, const double *x, double *y)
{
    int i, j;
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < n; j++)
            y[i] += a[i * n + j] * x[j];
    }
}

/* y[i] += x[k] x[i] / 2 over every other k from 1: the adjoint of x[i] sums over k */
static void strided(int n, const double *x, double *y)
{
    int i, k;
    for (i = 0; i < n; i++)
        for (k = 1; k < n; k += 2)
            y[i] += 0.5 * x[k] * x[i];
}

/* the same with a by-value weight: its adjoint is the caller's (*wb of the head, other
 * memory than the arrays' adjoints), summed apart as well as the adjoint of x[i] */
static void weighted(int n, double w, const double *x, double *y)
{
    int i, k;
    for (i = 0; i < n; i++)
        for (k = 1; k < n; k += 2)
            y[i] += w * x[k] * x[i];
}

/* a while loop: the adjoint of x[0] sums over it */
static double tail_sum(int n, const double *x)
{
    double s = 0.0;
    int k = n;
    while (k > 0) {
        k--;
        s += x[k] * x[0];
    }
    return s;
}

void adjoint_sums(int n, const double *a, const double *l, const double *x, double w,
                  double *out)
{
    double y[16], z[16], q[16], r[16], s, *p = r;
    int i, j;
    lower(n, l, x, y);
    matvec(n, a, y, z);
    for (i = 0; i < n; i++)
        q[i] = 0.0;
    strided(n, x, q);
    weighted(n, w, x, q);
    s = tail_sum(n, z);
    for (i = 0; i < n; i++) {
        s += z[i] * z[i] + w * x[i];
        r[i] = z[i];
    }
    /* linear in r, so that no value of r is saved: r's adjoint is read where it is summed,
     * directly and through the alias p */
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            r[j] += 0.1 * r[i];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            r[j] += 0.01 * p[i];
    for (i = 0; i < n; i++)
        s += r[i] + q[i];
    out[0] = s;
}
