/* Heads whose independents and dependents are arrays of row pointers (`double **`), each
 * row its own block: a ragged lower triangle read through a helper, a grid relaxed in
 * place, and the rows of a pure output (tests/test_struct_heads.py). */
#include <math.h>

static double dot_row(int len, const double *r, const double *x)
{
    double s = 0.0;
    int k;
    for (k = 0; k < len; k++)
        s += r[k] * x[k];
    return s;
}

/* x' L x for a lower triangle whose row i holds i + 1 numbers */
double tri_form(int n, double **L, const double *x)
{
    double q = 0.0;
    int i;
    for (i = 0; i < n; i++)
        q += x[i] * dot_row(i + 1, L[i], x) + sin(L[i][i]);
    return q;
}

/* one Gauss-Seidel sweep over an n x m grid, in place, then the grid's energy */
void relax_rows(int n, int m, double **u, double w, double *energy)
{
    int i, j;
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < m - 1; j++)
            u[i][j] = (1.0 - w) * u[i][j] +
                      0.25 * w * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] * u[i][j + 1]);
    *energy = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            *energy += sin(u[i][j]) * u[i][j];
}

/* rows of an outer product: a pure output, never read */
void outer_rows(int n, const double *x, double *out[])
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            out[i][j] = x[i] * cos(x[j]);
}
