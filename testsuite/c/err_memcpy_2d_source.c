/* adgen-test
head: pack(y)/(x)
arg x: double[6]
arg y: double[6]
expect-error: memcpy of a multi-dimensional array
expect-error-line: 18
*/
/* Must be refused (it was turned into a copy of rows into doubles, which did not
 * compile): memcpy from a 2-D array into a flat one. */
#include <string.h>

void pack(const double *x, double *y)
{
    double a[2][3];
    int i;
    for (i = 0; i < 6; i++)
        a[i / 3][i % 3] = x[i] * x[i];
    memcpy(y, a, sizeof a);
}
