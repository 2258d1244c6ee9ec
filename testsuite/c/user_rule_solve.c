/* adgen-test
head: model(out)/(p)
arg n: int = 5
arg p: double[3] = uniform(0.2, 0.8)
arg A: double[n*n]
arg b: double[n]
arg x: double[n]
arg out: double[1]
adgen-flags: --rules rules/solve.rules
*/
/* Derivative rules (docs/rules.md): three functions adgen does not differentiate through
 * but calls the hand-written derivative routines of, given in rules/solve.rules: a
 * triangular solve whose adjoint is a transposed solve (an output computed from two
 * inputs, one of them a matrix the model fills in), an in-place update (an in/out array),
 * and a scalar function of a by-value argument. The model calls the solve twice, the
 * second time with the first's solution as right-hand side. */
#include <math.h>
/* x = A^{-1} b for a lower-triangular A (forward substitution) */
void solve(int n, const double *A, const double *b, double *x)
{
    int i, j;
    for (i = 0; i < n; i++) {
        double s = b[i];
        for (j = 0; j < i; j++)
            s -= A[i * n + j] * x[j];
        x[i] = s / A[i * n + i];
    }
}

/* Its derivatives, written by hand: the adjoint is a transposed solve. */
void solve_d(int n, const double *A, const double *Ad, const double *b, const double *bd,
             double *x, double *xd)
{
    int i, j;
    solve(n, A, b, x);
    for (i = 0; i < n; i++) {          /* A xd = bd - Ad x */
        double s = bd[i];
        for (j = 0; j <= i; j++)
            s -= Ad[i * n + j] * x[j];
        for (j = 0; j < i; j++)
            s -= A[i * n + j] * xd[j];
        xd[i] = s / A[i * n + i];
    }
}

void solve_b(int n, const double *A, double *Ab, const double *b, double *bb, double *x,
             double *xb)
{
    int i, j;
    solve(n, A, b, x);
    for (i = n - 1; i >= 0; i--) {      /* A^T lambda = xb */
        double s = xb[i];
        for (j = i + 1; j < n; j++)
            s -= A[j * n + i] * bb[j];
        bb[i] = s / A[i * n + i];
    }
    for (i = 0; i < n; i++) {           /* Ab = -lambda x^T (lower part) */
        for (j = 0; j <= i; j++)
            Ab[i * n + j] -= bb[i] * x[j];
        xb[i] = 0.0;
    }
}

/* y[i] += 0.3 sin(y[i-1]), from the end so that each step reads an old value */
void smooth(int n, double *y)
{
    int i;
    for (i = n - 1; i >= 1; i--)
        y[i] += 0.3 * sin(y[i - 1]);
}

void smooth_d(int n, double *y, double *yd)
{
    int i;
    for (i = n - 1; i >= 1; i--) {
        yd[i] += 0.3 * cos(y[i - 1]) * yd[i - 1];
        y[i] += 0.3 * sin(y[i - 1]);
    }
}

/* on entry y holds the values before the update; on return, after it */
void smooth_b(int n, double *y, double *yb)
{
    int i;
    for (i = 0; i + 1 < n; i++)
        yb[i] += 0.3 * cos(y[i]) * yb[i + 1];
    smooth(n, y);
}

double softplus(double a, int k)
{
    return log(1.0 + exp(k * a)) / k;
}

double softplus_d(double a, double ad, int k, double *softplus_value)
{
    *softplus_value = softplus(a, k);
    return ad / (1.0 + exp(-k * a));
}

/* sets ab (adgen accepts routines that set the adjoints of inputs or add to them) */
void softplus_b(double a, double *ab, int k, double softplusb)
{
    *ab = softplusb / (1.0 + exp(-k * a));
}

void model(int n, const double *p, double *A, double *b, double *x, double *out)
{
    int i, j;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            A[i * n + j] = (j < i) ? 0.1 * sin(p[0] * (i + j)) : (i == j ? 2.0 + p[1] * p[1] : 0.0);
        b[i] = cos(p[2] * i) + p[0];
    }
    solve(n, A, b, x);
    smooth(n, x);
    out[0] = 0.0;
    for (i = 0; i < n; i++)
        out[0] += x[i] * x[i] * (1.0 + 0.1 * i) + softplus(x[i] - p[1], 2);
    /* a second solve with the solution as the right-hand side */
    solve(n, A, x, b);
    for (i = 0; i < n; i++)
        out[0] += exp(0.1 * b[i]);
}
