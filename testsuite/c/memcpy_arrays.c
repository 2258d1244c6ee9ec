/* adgen-test
head: pack(y)/(x)
arg x: double[6] = uniform(-1, 1)
arg y: double[6]
*/
/* memcpy and memmove of whole arrays, counted in memory order: from a 2-D array into a
 * flat one, through `&a` (a pointer to the array), into a row, between rows and into a
 * whole 2-D array from a flat block. */
#include <string.h>

void pack(const double *x, double *y)
{
    double a[2][3], b[3], c[3], m[2][3];
    int i;
    for (i = 0; i < 6; i++)
        a[i / 3][i % 3] = x[i] * x[i];
    memcpy(y, a, sizeof a);
    memcpy(&b, &a[1], sizeof b);
    memcpy(c, &b, 3 * sizeof(double));
    memcpy(m, y, sizeof(double [2][3]));
    memmove(m[0], m[1], sizeof m[0]);
    memcpy(&m[1][0], c, sizeof c);
    for (i = 0; i < 6; i++)
        y[i] += m[i / 3][i % 3] * b[i % 3] + c[2 - i % 3];
}
