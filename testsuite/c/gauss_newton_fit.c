/* adgen-test
head: gn_step(p)/(p t y)
arg m: int = 7
arg t: double[m] = uniform(0, 2)
arg y: double[m] = uniform(0.5, 2)
arg p: double[3] = {1.5, 0.8, 0.2}
arg iters: int = 3
*/
/* Gauss-Newton for the curve fit y ~ a exp(-b t) + c: residuals and their analytic
 * Jacobian, normal equations J^T J dp = -J^T r assembled in a fixed 3x3 local array and
 * solved by Gaussian elimination with partial pivoting (the pivot choice is a branch on
 * the data), a few damped steps.  Differentiating the fitted parameters with respect to
 * the data is the classical sensitivity-of-the-fit question. */
#include <math.h>

#define NP 3

static void residual_jacobian(int m, const double *t, const double *y, const double *p,
                              double *r, double (*J)[NP])
{
    int i;
    for (i = 0; i < m; i++) {
        const double e = exp(-p[1] * t[i]);
        r[i] = p[0] * e + p[2] - y[i];
        J[i][0] = e;
        J[i][1] = -p[0] * t[i] * e;
        J[i][2] = 1.0;
    }
}

/* solve A x = b in place (A destroyed, x returned in b) */
static void gauss_solve(double A[NP][NP], double b[NP])
{
    int k, i, j;
    for (k = 0; k < NP; k++) {
        int piv = k;
        for (i = k + 1; i < NP; i++)
            if (fabs(A[i][k]) > fabs(A[piv][k]))
                piv = i;
        if (piv != k) {
            for (j = 0; j < NP; j++) {
                double tmp = A[k][j];
                A[k][j] = A[piv][j];
                A[piv][j] = tmp;
            }
            {
                double tmp = b[k];
                b[k] = b[piv];
                b[piv] = tmp;
            }
        }
        for (i = k + 1; i < NP; i++) {
            double f = A[i][k] / A[k][k];
            for (j = k; j < NP; j++)
                A[i][j] -= f * A[k][j];
            b[i] -= f * b[k];
        }
    }
    for (k = NP - 1; k >= 0; k--) {
        for (j = k + 1; j < NP; j++)
            b[k] -= A[k][j] * b[j];
        b[k] /= A[k][k];
    }
}

void gn_step(int m, const double *t, const double *y, double *p, int iters)
{
    double r[16], J[16][NP];
    int it, i, a, b;
    for (it = 0; it < iters; it++) {
        double JtJ[NP][NP], g[NP];
        residual_jacobian(m, t, y, p, r, J);
        for (a = 0; a < NP; a++) {
            g[a] = 0.0;
            for (i = 0; i < m; i++)
                g[a] -= J[i][a] * r[i];
            for (b = 0; b < NP; b++) {
                JtJ[a][b] = a == b ? 1e-3 : 0.0;
                for (i = 0; i < m; i++)
                    JtJ[a][b] += J[i][a] * J[i][b];
            }
        }
        gauss_solve(JtJ, g);
        for (a = 0; a < NP; a++)
            p[a] += 0.7 * g[a];
    }
}
