/* adgen-test
head: collect(collect)/(x w)
arg n: int = 11
arg x: double[n] = uniform(0.2, 1.3)
arg w: double = 0.7
*/
/* A buffer grown by realloc while a loop runs (doubling its capacity, through a
 * temporary checked for NULL, as careful code does), one grown in place
 * (`p = realloc(p, ...)`), one started by calloc and one by NULL, then shrunk to what
 * it holds. realloc is the statements it equals (a new block, the elements both hold
 * copied, the old one freed): each pointer variable involved counts the elements of its
 * block. */
#include <math.h>
#include <stdlib.h>

double collect(int n, const double *x, double w)
{
    int cap = 2, len = 0, i, k;
    double *buf = malloc(cap * sizeof(double));
    double *sq = calloc(1, sizeof(double));
    double *run = NULL;
    double s = 0.0;
    for (i = 0; i < n; i++) {
        if (len == cap) {
            double *tmp;
            cap = 2 * cap;
            tmp = realloc(buf, cap * sizeof(double));
            if (tmp == NULL)
                abort();
            buf = tmp;
        }
        buf[len] = sin(x[i]) * (len + w);
        sq = realloc(sq, (len + 1) * sizeof *sq);
        sq[len] = buf[len] * buf[len];
        run = (double *)realloc(run, (i + 1) * sizeof(double));
        run[i] = (i > 0 ? run[i - 1] : 0.0) + w * x[i];
        len++;
    }
    buf = realloc(buf, len * sizeof *buf);
    for (k = 0; k < len; k++)
        s += buf[k] * sq[k] + run[k] * buf[len - 1 - k];
    free(buf);
    free(sq);
    free(run);
    return s;
}
