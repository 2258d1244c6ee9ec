/* adgen-test
head: relax(q)/(p)
sizes: give
arg n: int = 5
arg p: double[n*n] = uniform(-1, 1)
arg q: double[n*n]
*/
/* A C99 kernel over n x n grids passed as variably-modified arrays. `--size p=n*n` counts
 * the numbers in p (n rows of n): the adjoint zeroes n rows of pb, not n*n rows of n. The
 * interior of q is written, its border never: q's seed is consumed in all n rows all the
 * same, as for any pure output. */
void relax(int n, double p[n][n], double q[n][n])
{
    int i, j;
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            q[i][j] = p[i][j] * p[i][j] - 0.25 * (p[i - 1][j] + p[i + 1][j]) * p[i][j - 1];
}
