/* adgen-test
head: mlp_forward(out)/(w1 b1 w2)
arg nin: int = 4
arg nhid: int = 5
arg nout: int = 3
arg input: double[nin] = uniform(-1, 1)
arg w1: double[nhid*nin] = uniform(-0.8, 0.8)
arg b1: double[nhid] = uniform(-0.2, 0.2)
arg w2: double[nout*nhid] = uniform(-0.8, 0.8)
arg out: double[nout]
*/
/* A two-layer perceptron: row-major matrix-vector products in nested loops, a tanh hidden
 * layer in a fixed-size local buffer, and a softmax output computed with a
 * max shift. */
#include <math.h>

#define MAX_HIDDEN 32

static void dense(int m, int k, const double *w, const double *x, double *y)
{
    int i, j;
    for (i = 0; i < m; i++) {
        y[i] = 0.0;
        for (j = 0; j < k; j++)
            y[i] += w[i * k + j] * x[j];
    }
}

void mlp_forward(int nin, int nhid, int nout, const double *input, const double *w1,
                 const double *b1, const double *w2, double *out)
{
    double hidden[MAX_HIDDEN];
    double mx, sum = 0.0;
    int i;
    dense(nhid, nin, w1, input, hidden);
    for (i = 0; i < nhid; i++)
        hidden[i] = tanh(hidden[i] + b1[i]);
    dense(nout, nhid, w2, hidden, out);
    mx = out[0];
    for (i = 1; i < nout; i++)
        mx = out[i] > mx ? out[i] : mx;
    for (i = 0; i < nout; i++) {
        out[i] = exp(out[i] - mx);
        sum += out[i];
    }
    for (i = 0; i < nout; i++)
        out[i] /= sum;
}
