/* A head that replaces a block the caller owns (free, then malloc into the caller's
 * struct), reading the old block first, and allocates and frees scratch in a loop. The
 * caller must find the new block, allocated and holding the final values, after the
 * derivative routines as after the primal, and the old block freed. */
#include <math.h>
#include <stdlib.h>

#include "model.h"

double run(Model *m, const double *q)
{
    double cost = 0.0, carry = 0.0;
    int i, k;
    for (i = 0; i < m->n; i++)
        carry += m->s[i];
    free(m->s);
    m->s = malloc((size_t)m->n * sizeof(double));
    for (i = 0; i < m->n; i++)
        m->s[i] = 0.5 * i + 0.1 * carry;
    for (i = 0; i < m->n; i++)
        cost += m->s[i] * q[i] * q[i] + carry * q[i];
    for (k = 0; k < 3; k++) {
        double *w = malloc((size_t)m->n * sizeof(double));
        for (i = 0; i < m->n; i++)
            w[i] = sin(q[i]) * (k + 1);
        for (i = 0; i < m->n; i++)
            cost += w[i] * w[i];
        free(w);
    }
    return cost;
}
