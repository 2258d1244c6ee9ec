/* adgen-test
head: mlp_loss(mlp_loss)/(theta)
arg nin: int = 3
arg nhid: int = 5
arg nout: int = 4
arg nsamp: int = 6
arg theta: double[nhid*nin + nhid + nout*nhid + nout] = uniform(-0.8, 0.8)
arg X: double[nsamp*nin] = uniform(-1, 1)
arg labels: int[nsamp] = range(0, 4)
*/
/* Two dense layers (tanh hidden, linear output) + softmax cross-entropy, averaged over a
 * batch.  All weights in one flat parameter vector; each layer's slice is found by pointer
 * offsets.  The dense helper walks its weight rows with a moving pointer. */
#include <math.h>
#include <stdlib.h>

static void dense_forward(int rows, int cols, const double *W, const double *b,
                          const double *in, double *out)
{
    int r, c;
    for (r = 0; r < rows; r++) {
        const double *w = W + (size_t)r * cols;
        double acc = b[r];
        for (c = 0; c < cols; c++)
            acc += *w++ * in[c];
        out[r] = acc;
    }
}

static double log_softmax_at(const double *z, int n, int k)
{
    double m = z[0], s = 0.0;
    int i;
    for (i = 1; i < n; i++)
        if (z[i] > m)
            m = z[i];
    for (i = 0; i < n; i++)
        s += exp(z[i] - m);
    return z[k] - m - log(s);
}

double mlp_loss(int nin, int nhid, int nout, int nsamp, const double *theta,
                const double *X, const int *labels)
{
    const double *W1 = theta;
    const double *b1 = W1 + nhid * nin;
    const double *W2 = b1 + nhid;
    const double *b2 = W2 + nout * nhid;
    double *h = malloc((size_t)(nhid + nout) * sizeof *h);
    double *z = h + nhid;
    double loss = 0.0;
    int s, j;

    for (s = 0; s < nsamp; s++) {
        dense_forward(nhid, nin, W1, b1, X + s * nin, h);
        for (j = 0; j < nhid; j++)
            h[j] = tanh(h[j]);
        dense_forward(nout, nhid, W2, b2, h, z);
        loss -= log_softmax_at(z, nout, labels[s]);
    }
    free(h);
    return loss / nsamp;
}
