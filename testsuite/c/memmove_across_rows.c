/* adgen-test
head: f(y)/(x)
arg x: double[12] = uniform(0.2, 1.2)
arg y: double[2]
*/
/* memmove, memcpy and memset over blocks that start at a row, or inside a row, of a 2-D
 * array and run on into the next rows (`memmove(m[1], m[0], 8 * sizeof m[0][0])`): each
 * number of the block is indexed in the whole array (`m[(k + 4) / 4][(k + 4) % 4]`), not
 * past the end of its row, which C does not allow and gcc -O2 compiles otherwise. */
#include <string.h>

void f(const double *x, double *y)
{
    double m[3][4], w[2][3];
    memcpy(m, x, sizeof m);
    memmove(m[1], m[0], 8 * sizeof m[0][0]);
    memcpy(&w[0][1], &m[1][2], 4 * sizeof(double));
    memset(&w[1][2], 0, sizeof(double));
    memset(w[0], 0, sizeof(double));
    y[0] = m[2][3] * m[1][0] + m[0][1] + w[1][1] * w[0][2];
    y[1] = w[1][0] * m[2][1] + w[1][2] + w[0][0];
}
