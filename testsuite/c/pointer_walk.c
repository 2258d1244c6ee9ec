/* adgen-test
head: walk_filters(y)/(x)
arg n: int = 9
arg x: double[n] = uniform(0.5, 2)
arg y: double[2*n]
sizes: give
*/
/* The lengths are given (--size) because y, a pure output whose values are read back,
 * is walked in a while loop, whose iterations adgen does not count. */
/* Local pointers walking over arrays: *q++ = ... over the first half of y, a backward walk
 * with p--, an alias of the middle of an array, and pointer comparisons as loop bounds. */
#include <math.h>

void walk_filters(int n, const double *x, double *y)
{
    const double *p = x;
    const double *end = x + n;
    double *q = y;
    double *back;
    double *mid = y + n;   /* alias of the second half */
    double acc = 0.0;

    /* forward exponential smoothing: first half of y */
    while (p < end) {
        acc = 0.7 * acc + 0.3 * sqrt(*p);
        *q++ = acc;
        p++;
    }
    /* backward running product into the second half, walking down */
    acc = 1.0;
    back = mid + n - 1;
    for (p = end - 1; p >= x; p--) {
        acc *= 0.5 + 0.5 * (*p);
        *back = acc;
        back--;
    }
    /* mix: the second half gets the first half added through the alias */
    for (q = y; q < mid; q++)
        q[n] += 0.25 * q[0];
}
