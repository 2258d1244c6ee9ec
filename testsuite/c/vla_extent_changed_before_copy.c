/* adgen-test
head: halves(y)/(x)
expect-error: memcpy of sizeof a variable-length array whose extents the function changes after declaring it
expect-error-line: 14
*/
/* `sizeof b` is b's size as declared; the function halves n after declaring b, so the
 * extent read again at the copy would be another: refused, asking for the count. */
#include <string.h>

void halves(int n, const double *x, double *y)
{
    double b[n];
    n = n / 2;
    memcpy(b, x, sizeof b);
    for (int i = 0; i < n; i++)
        y[i] = b[i] * b[2 * i];
}
