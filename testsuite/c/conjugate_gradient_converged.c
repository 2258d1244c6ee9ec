/* adgen-test
head: cg_solve(u)/(diag b)
arg n: int = 6
arg iters: int = 40
arg diag: double[n] = uniform(2, 3)
arg b: double[n] = uniform(-1, 1)
arg u: double[n]
tol: 1e-5
*/
/* Conjugate gradients on a tridiagonal SPD matrix (diag on the diagonal, -1 beside it),
 * run for many more iterations than the size: once converged, the residual r is tiny and
 * each update r = r - alpha*Ap changes it by rounding only. Restoring r in the backward
 * sweep by adding alpha*Ap back would rebuild it without any of its accuracy; the adjoint
 * must restore the exact values. A guard stops the updates once the residual is zero. */
static void apply(int n, const double *diag, const double *v, double *out)
{
    int i;
    for (i = 0; i < n; i++) {
        out[i] = diag[i] * v[i];
        if (i > 0)
            out[i] -= v[i - 1];
        if (i < n - 1)
            out[i] -= v[i + 1];
    }
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

void cg_solve(int n, int iters, const double *diag, const double *b, double *u)
{
    double r[16], p[16], ap[16];
    double rr, alpha, beta, rr_new;
    int i, k;
    for (i = 0; i < n; i++) {
        u[i] = 0.0;
        r[i] = b[i];
        p[i] = b[i];
    }
    rr = dot(n, r, r);
    for (k = 0; k < iters; k++) {
        if (rr < 1e-300)
            break;
        apply(n, diag, p, ap);
        alpha = rr / dot(n, p, ap);
        for (i = 0; i < n; i++) {
            u[i] = u[i] + alpha * p[i];
            r[i] = r[i] - alpha * ap[i];
        }
        rr_new = dot(n, r, r);
        beta = rr_new / rr;
        rr = rr_new;
        for (i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
    }
}
