/* adgen-test
head: smooth_table(y)/(x)
arg x: double[NPTS]
arg y: double[NPTS]
*/
/* Loops bounded by integer constants defined at file scope as `const` variables (`static
 * const int NPTS = 5;`, as C code names a size without a macro). y, added to, needs its
 * length: it was refused ("an index of 'y' has no known bound"). */
static const int NPTS = 5;
const int NPASS = 0x2;

void smooth_table(const double *x, double *y)
{
    for (int p = 0; p < NPASS; p++) {
        for (int i = 0; i < NPTS; i++)
            y[i] += 0.25 * x[i] * x[(i + 1) % NPTS];
        for (int i = NPTS - 1; i > 0; i--)
            y[i] = 0.5 * (y[i] + y[i - 1]);
    }
}
