/* adgen-test
head: independent_points(total)/(means scale w)
arg d: int = 3
arg k: int = 4
arg n: int = 6
arg means: double[k*d] = uniform(-1, 1)
arg x: double[n*d] = uniform(-1, 1)
arg scale: double = uniform(0.5, 1.5)
arg w: double[k] = uniform(0.5, 1.5)
arg total: double[1]
*/
/* `#pragma adgen independent` before loops whose iterations each fill their own scratch
 * (heap blocks, a local array, scalars, written through callees) and add into one sum: the
 * adjoint reverses each iteration right after running it, so its stack holds one
 * iteration. What the iterations only read has its adjoint gathered across the loop: array
 * parameters, a heap block and a local array filled before the loop, a by-value scalar, a
 * global array read directly. One such loop stands inside an outer loop (run again, with
 * its own gathered adjoints each time); another adds into a sum that a statement before
 * the loop also reads, whose value before the loop the backward sweep needs. */
#include <stdlib.h>
#include <math.h>

static double bias[4] = {0.25, -0.5, 0.75, 0.1};

static void centre(int d, const double *x, const double *m, double *out)
{
    int i;
    for (i = 0; i < d; i++)
        out[i] = x[i] - m[i];
}

static double soft_norm(int d, const double *v, double s)
{
    double r = 0.0;
    int i;
    for (i = 0; i < d; i++)
        r += v[i] * v[i] * s;
    return sqrt(r + 1.0);
}

static double log_sum_exp(int k, const double *t)
{
    double mx = t[0], acc = 0.0;
    int j;
    for (j = 1; j < k; j++)
        if (t[j] > mx)
            mx = t[j];
    for (j = 0; j < k; j++)
        acc += exp(t[j] - mx);
    return log(acc) + mx;
}

void independent_points(int d, int k, int n, const double *means, const double *x,
                        double scale, const double *w, double *total)
{
    double *diff = malloc((size_t)d * sizeof(double));
    double *term = malloc((size_t)k * sizeof(double));
    double *wsq = malloc((size_t)k * sizeof(double));
    double lw[4];
    double acc, sq, e;
    int i, j, rep;

    for (j = 0; j < k; j++) {
        wsq[j] = w[j] * w[j];
        lw[j] = log(w[j]);
    }
    acc = 0.0;
#pragma adgen independent
    for (i = 0; i < n; i++) {
        for (j = 0; j < k; j++) {
            centre(d, &x[i * d], &means[j * d], diff);
            e = soft_norm(d, diff, scale);
            term[j] = lw[j] - wsq[j] * e + bias[j] * scale;
        }
        acc = acc + log_sum_exp(k, term);
    }
    total[0] = acc * acc * 0.01;

    /* an outer loop around an independent one */
    for (rep = 0; rep < 2; rep++) {
        acc = sin(acc);
        total[0] += acc * acc;
#pragma adgen independent
        for (i = 0; i < n; i++) {
            sq = x[i * d] * means[rep] + scale;
            acc += sq * sq * w[rep];
        }
        total[0] += acc;
    }
    free(diff);
    free(term);
    free(wsq);
}
