/* adgen-test
head: scale(y)/(x)
arg n: int = 4
arg x: double[n] = uniform(0.5, 2)
arg y: double[n]
expect-error: declared without its size
expect-error-line: 12
*/
/* Must be refused: an active global array declared without its size (defined in another
 * file) has no size for its adjoint. */

extern double gain[];

void scale(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        gain[i] = gain[i] * x[i];
        y[i] = gain[i] * gain[i];
    }
}
