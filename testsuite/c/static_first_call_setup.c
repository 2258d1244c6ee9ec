/* adgen-test
head: shaped(shaped)/(x)
arg n: int = 4
arg x: double[n] = uniform(-1, 1)
*/
/* Statics that carry no state the derivatives see: weights set on the first call only
 * (the output's copy is set on its own first call, to the same constants), a scratch
 * array every call fills before reading it, and a call counter nothing else reads. */
#include <math.h>

static int ready = 0;
static double weights[3];
static double scratch[2];
static long calls = 0;

double shaped(int n, const double *x)
{
    double s = 0.0;
    int i;
    if (!ready) {
        weights[0] = 0.25;
        weights[1] = 0.5;
        weights[2] = 0.25;
        ready = 1;
    }
    calls++;
    for (i = 1; i < n - 1; i++) {
        scratch[0] = weights[0] * x[i - 1] + weights[1] * x[i];
        scratch[1] = weights[2] * x[i + 1];
        s += sin(scratch[0] + scratch[1]) * x[i];
    }
    return s;
}
