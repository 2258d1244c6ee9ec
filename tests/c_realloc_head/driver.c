/* run(run)/(q) of model.c: gradient and tangent against central finite differences,
 * the struct's new block in place after each routine (with the primal's values), built
 * with AddressSanitizer by the test: a block freed twice, read after being freed or
 * never freed fails the run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"

#define N 5

static void reset(Model *m)
{
    int i;
    for (i = 0; i < m->n; i++)
        m->s[i] = 0.1 * i;
}

int main(void)
{
    double q[N] = {0.3, -0.7, 1.1, 0.2, -0.4}, qb[N], qd[N], fd[N], f;
    Model m;
    int i, ok = 1;
    m.n = N;
    m.s = malloc(N * sizeof(double));
    for (i = 0; i < N; i++) {
        double h = 1e-6, up, down;
        q[i] += h;
        reset(&m);
        up = run(&m, q);
        q[i] -= 2 * h;
        reset(&m);
        down = run(&m, q);
        q[i] += h;
        fd[i] = (up - down) / (2 * h);
    }
    reset(&m);
    run_b(&m, q, qb, 1.0);
    for (i = 0; i < N; i++) {
        double want = 0.5 * i + 0.1 * 1.0;      /* carry = 0.1 * (0 + 1 + 2 + 3 + 4) */
        if (fabs(m.s[i] - want) > 1e-12)
            ok = 0;
    }
    for (i = 0; i < N; i++) {
        double dot;
        int j;
        for (j = 0; j < N; j++)
            qd[j] = i == j;
        reset(&m);
        dot = run_d(&m, q, qd, &f);
        if (fabs(dot - fd[i]) > 1e-6 * (1 + fabs(fd[i])) ||
            fabs(qb[i] - fd[i]) > 1e-6 * (1 + fabs(fd[i])))
            ok = 0;
    }
    free(m.s);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
