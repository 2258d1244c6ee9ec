/* adgen-test
head: net(loss)/(w)
arg n: int = 4
arg w: double[2*n] = uniform(-1, 1)
arg x: double[n] = uniform(-1, 1)
arg loss: double[1]
*/
/* Functions passed as they are in small ML code: an activation chosen per layer by a
 * condition (`k % 2 ? softplus : swish`), and NULL for no activation, the layer testing
 * its optional function (`f ? f(acc) : acc`, `if (post != NULL)`). Each call passing a
 * choice runs one of two calls; NULL gives a copy of the layer without the calls. */
#include <math.h>
#include <stddef.h>

typedef double (*activation)(double);

static double softplus(double v) { return log1p(exp(v)); }
static double swish(double v) { return v / (1.0 + exp(-v)); }
static double halve(double v) { return 0.5 * v; }

static void layer(int n, const double *w, const double *in, double *out, activation f,
                  activation post)
{
    int i;
    for (i = 0; i < n; i++) {
        double acc = w[i] * in[i] + w[n + i] * in[(i + 1) % n];
        out[i] = f ? f(acc) : acc;
        if (post != NULL)
            out[i] = post(out[i]);
    }
}

void net(int n, const double *w, const double *x, double *loss)
{
    double a[16], b[16];
    int i, k;
    for (i = 0; i < n; i++)
        a[i] = x[i];
    for (k = 0; k < 3; k++) {
        layer(n, w, a, b, k % 2 ? softplus : swish, k == 2 ? halve : NULL);
        for (i = 0; i < n; i++)
            a[i] = b[i];
    }
    layer(n, w, a, b, NULL, NULL);
    *loss = 0.0;
    for (i = 0; i < n; i++)
        *loss += b[i] * b[i];
}
