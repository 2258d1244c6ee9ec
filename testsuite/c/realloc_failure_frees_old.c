/* adgen-test
head: collect(collect)/(x)
arg n: int = 9
arg x: double[n] = uniform(0.2, 1.3)
*/
/* The careful idiom around realloc: the result goes into a temporary, and where it is
 * NULL (no memory) the old block, which realloc leaves as it was, is freed before
 * returning. The old block is freed only when realloc moved its elements, so the
 * failure path frees it once (gcc's -Wuse-after-free saw a free on both paths). */
#include <math.h>
#include <stdlib.h>

double collect(int n, const double *x)
{
    int cap = 2, len = 0;
    double *buf = malloc(cap * sizeof *buf);
    if (!buf)
        return 0.0;
    for (int i = 0; i < n; i++) {
        if (len == cap) {
            double *tmp = realloc(buf, 2 * cap * sizeof *buf);
            if (!tmp) {
                free(buf);
                return 0.0;
            }
            buf = tmp;
            cap *= 2;
        }
        buf[len++] = x[i] * x[i] + sin(x[i]);
    }
    double s = 0.0;
    for (int k = 0; k < len; k++)
        s += buf[k] * buf[len - 1 - k];
    free(buf);
    return s;
}
