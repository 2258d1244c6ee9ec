/* adgen-test
head: saved_elements(out)/(a x)
arg n: int = 5
arg m: int = 3
arg a: double[n*n] = uniform(-1, 1)
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[1]
*/
/* Scratch arrays rewritten every step by helpers that first set and then update the same
 * elements: a matrix-vector product accumulating into y[i] after setting it, a packed
 * lower-triangular product whose accumulation covers elements the first loop set, a
 * recurrence whose backward sweep reads the array it overwrites, and an update reaching
 * one element past those set before it. Only the first two may skip saving the update. */
#include <math.h>

/* y = A^T x */
static void matvec(int n, const double *A, const double *x, double *y)
{
    int i, j;
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = n - 1; j >= 0; j--)
            y[i] += x[j] * A[j * n + i];
    }
}

static void lower(int n, const double *diag, const double *l, const double *x, double *y)
{
    int i, j, c = 0;
    for (i = 0; i < n; i++)
        y[i] = diag[i] * x[i];
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            y[j] += l[c] * x[i];
            c++;
        }
}

static void recur(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i];
    for (i = 1; i < n; i++)
        y[i] = y[i] * tanh(y[i - 1]);
}

static void partial(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n - 1; i++)
        y[i] = x[i];
    for (i = 0; i < n; i++)
        y[i] += x[i] * x[i];
}

void saved_elements(int n, int m, const double *a, const double *x, double *out)
{
    double xs[8], y[8], z[8];
    int s, i;
    for (i = 0; i < n; i++)
        xs[i] = x[i];
    out[0] = 0.0;
    for (s = 0; s < m; s++) {
        matvec(n, a, xs, y);
        lower(n, xs, a, y, z);
        recur(n, z, y);
        partial(n, y, z);
        for (i = 0; i < n; i++) {
            out[0] += z[i] * y[i];
            xs[i] = sin(z[i]) + 0.5 * xs[i];
        }
    }
}
