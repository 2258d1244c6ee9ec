/* adgen-test
head: clipped_energy(clipped_energy)/(x)
arg n: int = 8
arg x: double[n] = uniform(-1, 1)
*/
/* Early exits and a cleanup path written with goto, as C solvers write them: a scan that
 * stops at the first element past a threshold (goto out of two nested loops), an error
 * path at the end of the function, a skip inside a loop body. */
#include <math.h>

static double pair_sum(int n, const double *x, double limit)
{
    double s = 0.0;
    int i, j;
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            if (x[i] * x[j] > limit)
                goto done;
            s += sin(x[i]) * x[j];
        }
    }
done:
    return s;
}

double clipped_energy(int n, const double *x)
{
    double e = 0.0, t;
    int i;
    if (n <= 0)
        goto fail;
    for (i = 0; i < n; i++) {
        if (x[i] < -0.9)
            goto next;
        e += x[i] * x[i] * exp(0.1 * x[i]);
    next:
        ;
    }
    t = pair_sum(n, x, 0.85);
    return e + t;
fail:
    return 0.0;
}
