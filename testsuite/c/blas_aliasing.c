/* adgen-test
head: krylov_like(x r)/(A b x)
arg n: int = 5
arg A: double[n*n] = uniform(-0.3, 0.3)
arg b: double[n] = uniform(-1, 1)
arg x: double[n] = uniform(-1, 1)
arg r: double[n+1]
*/
/* A few steepest-descent iterations for the (nonsymmetric, diagonally dominant) system
 * (A + 2I) x = b, written with small BLAS-like helpers that are called with aliased
 * arguments, as numerical code often does: axpy(n, a, x, y) with y == x shifted, a
 * matrix-vector product writing into a vector that is then scaled in place, and
 * vec_add(n, u, v, u). */
#include <math.h>
#include <stdlib.h>

static void axpy(int n, double a, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] += a * x[i];
}

static void scal(int n, double a, double *x)
{
    int i;
    for (i = 0; i < n; i++)
        x[i] *= a;
}

static double dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static void vec_add(int n, const double *u, const double *v, double *w)
{
    int i;
    for (i = 0; i < n; i++)
        w[i] = u[i] + v[i];
}

static void matvec_shifted(int n, const double *A, double shift, const double *x, double *y)
{
    int i, j;
    for (i = 0; i < n; i++) {
        y[i] = shift * x[i];
        for (j = 0; j < n; j++)
            y[i] += A[i * n + j] * x[j];
    }
}

void krylov_like(int n, const double *A, const double *b, double *x, double *r)
{
    double *Ar = malloc((size_t)n * sizeof(double));
    double *tmp = malloc((size_t)n * sizeof(double));
    int it;
    for (it = 0; it < 4; it++) {
        double alpha;
        matvec_shifted(n, A, 2.0, x, tmp);
        vec_add(n, b, tmp, r);
        axpy(n, -2.0, tmp, r);          /* r = b - (A+2I)x */
        matvec_shifted(n, A, 2.0, r, Ar);
        alpha = dot(n, r, r) / dot(n, r, Ar);
        axpy(n, alpha, r, x);
    }
    vec_add(n, x, x, tmp);              /* tmp = 2x */
    scal(n, 0.5, tmp);
    vec_add(n, tmp, r, r);              /* r = x + r, aliased output */
    axpy(n - 1, 0.1, r + 1, r);         /* r[i] += 0.1 r[i+1], overlapping */
    r[n] = sqrt(dot(n, r, r));
    free(Ar);
    free(tmp);
}
