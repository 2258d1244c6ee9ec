/* adgen-test
head: relax(relax)/(x w)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg w: double = uniform(0.3, 0.7)
sizes: give
*/
/* Gotos next to other constructs: out of a do-while, within a nested block, back to a
 * label on a for loop (the loop runs again), and a checkpointed loop after statements a
 * goto may skip (its directive stays with it). */
#include <math.h>

double relax(int n, const double *x, double w)
{
    double s = 0.0, r = 0.0;
    int i = 0, sweeps = 0, k;
    do {
        s += w * x[i];
        if (s > 1.5)
            goto after_do;
        i++;
    } while (i < n);
after_do:
    {
        double t = s * s;
        if (t > 0.5)
            goto inner;
        t = sin(t);
    inner:
        r += t;
    }
again:
    for (i = 0; i < n; i++)
        r = r * w + 0.1 * cos(x[i] + r);
    sweeps++;
    if (sweeps < 3)
        goto again;
    if (r > 100.0)
        goto done;
#pragma adgen binomial_ckp(8, 2, 0)
    for (k = 0; k < 8; k++)
        r = r - 0.05 * sin(r) * w;
done:
    return r + s;
}
