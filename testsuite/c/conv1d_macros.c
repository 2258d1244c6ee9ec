/* adgen-test
head: conv1d_block(out)/(signal kernels bias)
arg len: int = 12
arg cin: int = 2
arg cout: int = 3
arg signal: double[cin*len] = uniform(-1, 1)
arg kernels: double[cout*cin*KW] = uniform(-0.5, 0.5)
arg bias: double[cout] = uniform(-0.1, 0.1)
arg out: double[cout*len]
*/
/* A 1-D convolution block: 'same' padding with zeros outside the signal, dilation 2,
 * several channels, then a smooth GELU-like activation and a residual sum over input
 * channels.  Indexing goes through function-like macros. */
#include <math.h>

#define KW 3
#define DIL 2
#define SIG(c, t) signal[(c) * len + (t)]
#define KER(o, c, k) kernels[((o) * cin + (c)) * KW + (k)]
#define OUT(o, t) out[(o) * len + (t)]
#define IN_RANGE(t) ((t) >= 0 && (t) < len)
#define SQ(x) ((x) * (x))

static double gelu_tanh(double x)
{
    const double c = 0.7978845608028654;    /* sqrt(2/pi) */
    return 0.5 * x * (1.0 + tanh(c * (x + 0.044715 * x * SQ(x))));
}

void conv1d_block(int len, int cin, int cout, const double *signal, const double *kernels,
                  const double *bias, double *out)
{
    int o, c, t, k;
    for (o = 0; o < cout; o++) {
        for (t = 0; t < len; t++) {
            double acc = bias[o];
            for (c = 0; c < cin; c++)
                for (k = 0; k < KW; k++) {
                    int src = t + (k - KW / 2) * DIL;
                    if (IN_RANGE(src))
                        acc += KER(o, c, k) * SIG(c, src);
                }
            OUT(o, t) = gelu_tanh(acc);
            for (c = 0; c < cin; c++)
                OUT(o, t) += 0.1 * SIG(c, t);
        }
    }
}
