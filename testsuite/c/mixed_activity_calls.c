/* adgen-test
head: model_fit(loss)/(theta)
arg n: int = 4
arg theta: double[n] = uniform(-1, 1)
arg A: double[n*n] = uniform(-0.5, 0.5)
arg loss: double[1]
*/
/* One helper, several activity patterns: matvec is called on the active parameters, on
 * a constant design vector built in a local array, and on a heap buffer of constants;
 * a lazily initialised static lookup table (static flag + static array) supplies
 * constant weights. */
#include <math.h>
#include <stdlib.h>

#define NMAX 8

static void matvec(int n, const double *A, const double *x, double *y)
{
    int i, j;
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < n; j++)
            y[i] += A[i * n + j] * x[j];
    }
}

static double table_weight(int i)
{
    static int ready = 0;
    static double table[NMAX];
    if (!ready) {
        int k;
        for (k = 0; k < NMAX; k++)
            table[k] = 1.0 / (1.0 + k);
        ready = 1;
    }
    return table[i];
}

void model_fit(int n, const double *theta, const double *A, double *loss)
{
    double design[NMAX], pred[NMAX], base[NMAX];
    double *consts = malloc((size_t)n * sizeof(double));
    double *cpred = malloc((size_t)n * sizeof(double));
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        design[i] = cos(0.3 * i);
        consts[i] = 0.5 + 0.1 * i;
    }
    matvec(n, A, design, base);
    matvec(n, A, consts, cpred);
    matvec(n, A, theta, pred);
    for (i = 0; i < n; i++) {
        double r = pred[i] + base[i] - cpred[i] * theta[i];
        s += table_weight(i) * r * r;
    }
    *loss = s;
    free(consts);
    free(cpred);
}
