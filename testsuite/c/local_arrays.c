/* adgen-test
head: gram_stats(out)/(a)
arg a: double[9] = uniform(-1, 1)
arg out: double[3]
*/
/* Local scalars and fixed-size local arrays (1-D and 2-D): G = A^T A + I for a 3x3 A
 * (row-major), then det(G), trace(G) and the Frobenius norm of G. */
#include <math.h>

void gram_stats(const double *a, double *out)
{
    double m[3][3];
    double g[9];
    double det, tr = 0.0, fro = 0.0;
    int i, j, k;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            m[i][j] = a[3 * i + j];
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) {
            double s = (i == j) ? 1.0 : 0.0;
            for (k = 0; k < 3; k++)
                s += m[k][i] * m[k][j];
            g[3 * i + j] = s;
        }
    }
    det = g[0] * (g[4] * g[8] - g[5] * g[7])
        - g[1] * (g[3] * g[8] - g[5] * g[6])
        + g[2] * (g[3] * g[7] - g[4] * g[6]);
    for (i = 0; i < 3; i++)
        tr += g[4 * i];
    for (i = 0; i < 9; i++)
        fro += g[i] * g[i];
    out[0] = det;
    out[1] = tr;
    out[2] = sqrt(fro);
}
