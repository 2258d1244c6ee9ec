/* adgen-test
head: fir_run(y)/(x h)
arg n: int = 12
arg m: int = 5
arg x: double[n] = uniform(-1, 1)
arg h: double[m] = uniform(-0.5, 0.5)
arg y: double[n]
*/
/* A FIR filter with a delay line shifted by memmove, as embedded code writes it: the
 * history moves up one place for each sample (overlapping blocks, destination after the
 * source), and a block moves down at the end (destination before the source). */
#include <string.h>

void fir_run(int n, int m, const double *x, const double *h, double *y)
{
    double line[8] = {0.0};
    int i, j;
    for (i = 0; i < n; i++) {
        memmove(&line[1], &line[0], (size_t)(m - 1) * sizeof(double));
        line[0] = x[i];
        y[i] = 0.0;
        for (j = 0; j < m; j++)
            y[i] += h[j] * line[j];
    }
    memmove(y, y + 2, (size_t)(n - 2) * sizeof *y);
    y[n - 2] = line[0] * line[1];
    y[n - 1] = line[m - 1];
}
