/* adgen-test
head: refused(e)/(x w)
arg n: int = 4
arg d: int = 5
arg x: double[n*d] = uniform(-1, 1)
arg w: double[d] = uniform(0.5, 1.5)
arg e: double[1]
*/
/* Refills that look like scratch but must be stored, not recomputed (written for this
 * project): each reads or writes something that would differ in the backward sweep. */
#include <math.h>
#include <stdlib.h>

void refused(int n, int d, const double *x, const double *w, double *e)
{
    double *carried = malloc((size_t)d * sizeof(double));
    double *growing = malloc((size_t)d * sizeof(double));
    double *from_state = malloc((size_t)d * sizeof(double));
    double *costly = malloc((size_t)d * sizeof(double));
    double *state = malloc((size_t)d * sizeof(double));
    int i, t;
    for (t = 0; t < d; t++) {
        carried[t] = w[t];
        growing[t] = 0.0;
        state[t] = w[t];
    }
    *e = 0.0;
    for (i = 0; i < n; i++) {
        /* read before the refill: the value comes from the previous iteration */
        *e += carried[i % d] * carried[0];
        for (t = 0; t < d; t++)
            carried[t] = x[i * d + t] * w[t];
        /* the elements written depend on the iteration */
        for (t = 0; t <= i && t < d; t++)
            growing[t] = x[i * d + t] + w[t];
        /* reads memory that the iteration changes after the refill */
        for (t = 0; t < d; t++)
            from_state[t] = state[t] * w[t];
        for (t = 0; t < d; t++)
            state[t] = state[t] * 0.5 + x[i * d + t];
        /* too costly to fill again */
        for (t = 0; t < d; t++)
            costly[t] = exp(x[i * d + t] * w[t]);
        *e += sin(carried[1]) * growing[0] * growing[d - 1] + from_state[2] * from_state[0]
              + costly[3] * costly[1];
    }
    free(carried);
    free(growing);
    free(from_state);
    free(costly);
    free(state);
}
