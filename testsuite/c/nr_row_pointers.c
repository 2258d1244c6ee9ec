/* adgen-test
head: lu_logdet(lu_logdet)/(a)
arg n: int = 5
arg a: double[n*n] = uniform(-1, 1)
*/
/* Numerical-Recipes-style code: a matrix as an array of row pointers (double **) into one
 * heap block, LU decomposition without pivoting on a diagonally dominated copy (rows
 * addressed as m[i][j]), and the log-determinant from the diagonal.  A helper takes
 * `double **`. */
#include <math.h>
#include <stdlib.h>

static void set_rows(double **m, int n, double *block)
{
    int i;
    for (i = 0; i < n; i++)
        m[i] = block + (size_t)i * n;
}

static void lu_inplace(double **m, int n)
{
    int i, j, k;
    for (k = 0; k < n; k++)
        for (i = k + 1; i < n; i++) {
            m[i][k] /= m[k][k];
            for (j = k + 1; j < n; j++)
                m[i][j] -= m[i][k] * m[k][j];
        }
}

double lu_logdet(int n, const double *a)
{
    double *block = malloc((size_t)n * n * sizeof(double));
    double **m;
    double ld = 0.0;
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            block[i * n + j] = a[i * n + j] + (i == j ? n : 0.0);
    m = malloc((size_t)n * sizeof(double *));
    set_rows(m, n, block);
    lu_inplace(m, n);
    for (i = 0; i < n; i++)
        ld += log(fabs(m[i][i]));
    free(m);
    free(block);
    return ld;
}
