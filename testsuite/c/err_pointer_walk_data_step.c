/* adgen-test
head: skip_rows(out)/(x)
arg n: int = 3
arg l: int = 2
arg x: double[n*l] = uniform(-1, 1)
arg out: double[n*l]
expect-error: an alias of 'out' walks over it by different amounts in different iterations
expect-error-line: 13
*/
/* Must be refused: the pointer moves on only where the data says so, so how far it gets
 * is not known from the sizes (inferring n*l would zero seeds the call never reached). */

void skip_rows(int n, int l, const double *x, double *out)
{
    double *p = out;
    int k, i;
    for (k = 0; k < l; k++) {
        for (i = 0; i < n; i++)
            p[i] = p[i] * x[k * n + i];
        if (x[k * n] > 0)
            p += n;
    }
}
