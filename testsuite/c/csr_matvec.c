/* adgen-test
head: csr_residual(r)/(vals x)
arg nrows: int = 4
arg rowptr: int[nrows+1] = {0, 2, 5, 6, 9}
arg colidx: int[9] = {0, 2, 0, 1, 3, 2, 0, 1, 3}
arg vals: double[9] = uniform(-1, 1)
arg x: double[4] = uniform(-1, 1)
arg b: double[nrows] = uniform(-1, 1)
arg r: double[nrows+1]
*/
/* Sparse matrix-vector product in CSR format: indirect indexing x[colidx[k]] through int
 * arrays, with row bounds from rowptr.  r = b - A x, and r[nrows] = ||r||^2. */
void csr_residual(int nrows, const int *rowptr, const int *colidx, const double *vals,
                  const double *x, const double *b, double *r)
{
    int i, k;
    double nrm = 0.0;
    for (i = 0; i < nrows; i++) {
        double s = 0.0;
        for (k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += vals[k] * x[colidx[k]];
        r[i] = b[i] - s;
        nrm += r[i] * r[i];
    }
    r[nrows] = nrm;
}
