/* adgen-test
head: skip_negatives(y)/(x)
arg n: int = 7
arg x: double[n] = uniform(-1, 1)
arg y: double[1]
head: skip_while(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
head: skip_with_step(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
head: skip_do_while(y)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg y: double[1]
head: skip_called_test(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg y: double[1]
*/
#include <math.h>

/* A continue in a loop whose condition has side effects. In C a continue goes to the
 * condition, which runs its side effect: the counter of `i-- > 0` still steps, and the
 * step of a for loop runs before it. adgen refused them all ("'continue' in a loop whose
 * condition has side effects is not supported", "a function call in the condition of a
 * for loop with 'continue' is not supported"). Each continue here skips active work
 * that overwrites what it reads, so the reverse sweep must know which iterations
 * skipped it. */

void skip_negatives(int n, const double *x, double *y)
{
    double s = 0;
    for (int i = n; i-- > 0; ) {
        if (x[i] < 0)
            continue;
        s += x[i] * x[i];
        s = s * (1 + 0.1 * x[i]);
    }
    *y = s;
}

void skip_while(int n, const double *x, double *y)
{
    int i = n, j, k = 0;
    double p = 1;
    while (i-- > 0) {
        y[i] = x[i];
        if (x[i] > 0.5)
            continue;
        p = p * x[i] + 0.25;
        y[i] = p;
    }
    j = n;
    while (--j >= 0) {
        if (j % 2)
            continue;
        y[j] = y[j] * y[j];
    }
    k = 0;
    while (k++ < n) {
        if (x[k - 1] < -0.5)
            continue;
        y[k - 1] = sin(y[k - 1]) + p;
    }
    y[0] += (double)(i + j + k) * x[0];
}

void skip_with_step(int n, const double *x, double *y)
{
    int i, k;
    double c = 0.5;
    /* the step (k++) runs on a continue too: y[k] follows x[n - 1 - k] */
    for (i = n, k = 0; i-- > 0; k++) {
        y[k] = x[i];
        if (x[i] < 0)
            continue;
        c = c * x[i] + 1;
        y[k] = c * x[i];
    }
}

void skip_do_while(int n, const double *x, double *y)
{
    int i = n;
    double s = 1;
    do {
        if (x[i - 1] < 0)
            continue;
        s = s * (x[i - 1] + 2);
    } while (--i > 0);
    *y = s + (double)i * x[0];
}

static int more(int k, int n)
{
    return k < n;
}

/* reads an active value: its call is computed before the loop's test, at the end of the
 * body, where a continue must compute it too */
static int bounded(double v, int k, int n)
{
    return v < 4 && k < n;
}

void skip_called_test(int n, const double *x, double *y)
{
    double s = 0;
    int k, m = 0;
    for (k = 0; more(k, n); k++) {
        if (x[k] > 0.3)
            continue;
        s = s * x[k] + x[k];
    }
    do {
        if (x[m] < -0.2)
            continue;
        s = s * s * 0.5 + x[m];
    } while (bounded(s, ++m, n));
    *y = s;
}
