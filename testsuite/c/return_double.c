/* adgen-test
head: logistic_nll(logistic_nll)/(w)
arg n: int = 7
arg d: int = 3
arg x: double[n*d] = uniform(-2, 2)
arg labels: int[n] = {0, 1, 1, 0, 1, 0, 0}
arg w: double[d+1] = uniform(-1, 1)
head: bump(bump)/(t)
arg t: double = uniform(-0.8, 0.8)
*/
/* Functions returning an active double: the logistic-regression negative log-likelihood
 * (calls of double-valued helpers nested in expressions, a call as an argument of
 * another call), and a smooth bump function of a by-value scalar. */
#include <math.h>

static double linear(int d, const double *w, const double *xi)
{
    double s = w[d];
    int j;
    for (j = 0; j < d; j++)
        s += w[j] * xi[j];
    return s;
}

static double log_sigmoid(double z)
{
    return z >= 0.0 ? -log1p(exp(-z)) : z - log1p(exp(z));
}

double logistic_nll(int n, int d, const double *x, const int *labels, const double *w)
{
    double nll = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        double z = linear(d, w, &x[i * d]);
        nll -= labels[i] ? log_sigmoid(z) : log_sigmoid(-z);
    }
    return nll / n + 0.01 * sqrt(1.0 + linear(d, w, w) * linear(d, w, w));
}

double bump(double t)
{
    return exp(-1.0 / (1.0 - t * t));
}
