/* Hand-written Jacobian of the trigonometric residual (trig.h):
 * d f_i / d x_j = sin x_j + [i == j] ((i + 1) sin x_i - cos x_i): every row is the row of
 * sines, plus a term on the diagonal. */
#include <math.h>
#include "trig.h"

void trig_hand_jacobian(int n, const double *restrict x, double *restrict f,
                        double *restrict jac)
{
    int i, j;
    double cos_sum = 0.0;
    for (j = 0; j < n; j++) {
        double s = sin(x[j]), c = cos(x[j]);
        cos_sum += c;
        jac[j] = s;
        f[j] = (double)(j + 1) * (1.0 - c) - s;
    }
    for (i = 1; i < n; i++)
        for (j = 0; j < n; j++)
            jac[(long)i * n + j] = jac[j];
    for (i = 0; i < n; i++) {
        jac[(long)i * n + i] += (double)(i + 1) * sin(x[i]) - cos(x[i]);
        f[i] += (double)n - cos_sum;
    }
}
