/* adgen-test
head: dense_in_place(out)/(a b c)
sizes: give
arg n: int = 5
arg a: double[n*n] = uniform(-0.5, 0.5)
arg b: double[n*n] = uniform(-1, 1)
arg c: double[n*n] = uniform(-0.3, 0.3)
arg out: double[n+1]
head: dense_in_place(out)/(a b c)
arg n: int = 1
arg a: double[n*n] = uniform(-0.5, 0.5)
arg b: double[n*n] = uniform(-1, 1)
arg c: double[n*n] = uniform(-0.3, 0.3)
arg out: double[n+1]
*/
/* Dense kernels that update an element in place in every iteration of their innermost loop
 * (`B[i][j] += A[k][i] * B[k][j]` over k): the adjoint pushes that element once before the
 * loop and pops it once after its backward loop, since no backward iteration reads it (its
 * partials read other elements, which the loop bounds keep apart). A triangular product
 * (its inner loop counting down), an LU factorisation in place (Doolittle, the inner loop a sum into
 * a[i][j]), both on rows of a C99 array, a Cholesky factorisation row by row on flattened
 * storage, and in the steps of a checkpointed loop. Beside them, loops whose element must stay pushed in every iteration: one whose
 * backward iterations read it (a product), one whose element other iterations read (k runs
 * over i), and a sum over a loop that may not run at all (n = 1: its element lies outside
 * `b`). */
#include <math.h>

/* B = U^T B, U strictly upper triangular (the rows of B below row i are read before
 * they change) */
static void trmm(int n, double a[n][n], double b[n][n])
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = n - 1; k > i; k--)
                b[i][j] += a[k][i] * b[k][j];
}

static void lu(int n, double a[n][n])
{
    int i, j, k;
    for (i = 0; i < n; i++) {
        for (j = i; j < n; j++)
            for (k = 0; k < i; k++)
                a[i][j] -= a[i][k] * a[k][j];
        for (j = i + 1; j < n; j++) {
            for (k = 0; k < i; k++)
                a[j][i] -= a[j][k] * a[k][i];
            a[j][i] = a[j][i] / a[i][i];
        }
    }
}

/* row by row (Cholesky-Banachiewicz): the element of row i, column j <= i */
static void cholesky(int n, double *c)
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            for (k = 0; k < j; k++)
                c[i * n + j] -= c[i * n + k] * c[j * n + k];
            if (i == j)
                c[i * n + i] = sqrt(c[i * n + i]);
            else
                c[i * n + j] = c[i * n + j] / c[j * n + j];
        }
}

/* the backward iterations read b[i]: each iteration's value is needed */
static void product(int n, const double *a, double *b)
{
    int i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < n; k++)
            b[i] = b[i] * (1.0 + 0.1 * a[k]);
}

/* k meets i: the backward iteration k = i reads the element itself */
static void all_rows(int n, double *b)
{
    int i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < n; k++)
            b[i * n] += 0.1 * b[k * n] * b[k * n];
}

/* b[n - 2] lies outside b when n = 1, and the loop then does not run */
static void tail_sum(int n, const double *a, double *b)
{
    int k;
    for (k = 0; k < n - 1; k++)
        b[n - 2] += a[k] * a[k];
}

/* the same shape in each step of a checkpointed loop: the steps' sweeps are copied */
static void smooth_steps(int n, int steps, double *u)
{
    int t, i, k;
#pragma adgen binomial_ckp(steps, 2, 0)
    for (t = 0; t < steps; t++)
        for (i = 0; i < n; i++)
            for (k = i + 1; k < n; k++)
                u[i] = u[i] + 0.1 * sin(u[k]) * u[k];
}

void dense_in_place(int n, double *a, double *b, double *c, double *out)
{
    int i, j;
    double s;
    for (i = 0; i < n; i++) {
        a[i * n + i] += 4.0;            /* diagonally dominant: LU needs no pivoting */
        for (j = 0; j < n; j++)
            c[i * n + j] = 0.5 * (c[i * n + j] + c[j * n + i]) + (i == j ? 2.0 : 0.0);
    }
    trmm(n, (double (*)[n])a, (double (*)[n])b);
    lu(n, (double (*)[n])a);
    cholesky(n, c);
    smooth_steps(n, 5, c);
    product(n, a, b);
    all_rows(n, b);
    for (i = 0; i <= n; i++)
        out[i] = 0.0;
    tail_sum(n, a, b);
    s = 0.0;
    for (i = 0; i < n * n; i++)
        s += sin(a[i]) * b[i] + c[i] * c[i];
    out[n] = s;
}
