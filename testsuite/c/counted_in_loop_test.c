/* adgen-test
head: countdown(y)/(x)
arg n: size_t = 5
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[n]
head: countdown_while(y)/(x)
arg n: size_t = 5
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[n]
head: countdown_signed(y)/(x)
arg n: int = 4
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[n]
*/
/* Loops that step their counter in their test: `for (size_t i = n; i-- > 0; )` and
 * `size_t i = n; while (i-- > 0)` (the unsigned countdown), `--i >= 0`, `i-- != 0`,
 * `k++ < n`. Each is the for loop it equals, `for (i = n - 1; i + 1 > 0; i--)`, whose
 * counter takes n - 1 ... 0: x and y (added to, so its values are read) get their length
 * n. adgen gave none ("an index of 'x' has no known bound"): the step in the test made them
 * while loops, whose iterations adgen does not count. The counter's value after the loop
 * (one step past the last tested) is read too, as the while loop leaves it. */
#include <stddef.h>

void countdown(size_t n, const double *x, double *y)
{
    for (size_t i = n; i-- > 0; )
        y[i] += x[i] * x[i];
}

void countdown_while(size_t n, const double *x, double *y)
{
    size_t i = n, k = 0;
    while (i-- > 0) {
        y[i] += 2.0 * x[i];
    }
    /* i wrapped to SIZE_MAX: one step past 0 */
    y[0] += (i == (size_t)-1) ? x[0] : 0.0;
    k = 0;
    while (k++ < n)
        y[k - 1] += x[k - 1] * x[0];
    y[0] += (double)k * x[n - 1];
}

void countdown_signed(int n, const double *x, double *y)
{
    int i = n, j;
    while (--i >= 0)
        y[i] += x[i] * x[n - 1 - i];
    j = n;
    while (j-- != 0)
        y[j] *= x[j];
    y[0] += (double)(i + j) * x[0];
}
