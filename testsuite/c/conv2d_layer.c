/* adgen-test
head: conv2d_forward(out)/(image kernels bias)
arg image: double[CIN*H*W] = uniform(-1, 1)
arg kernels: double[COUT*CIN*K*K] = uniform(-0.5, 0.5)
arg bias: double[COUT] = uniform(-0.1, 0.1)
arg out: double[COUT*HO*WO]
*/
/* A 2-D convolution layer (valid padding, stride 1) with several input and output
 * channels, followed by a softplus activation.  Sizes are compile-time constants; the
 * flat buffers are viewed as multi-dimensional arrays through pointer-to-array casts. */
#include <math.h>

#define CIN 2
#define COUT 3
#define H 6
#define W 5
#define K 3
#define HO (H - K + 1)
#define WO (W - K + 1)

static inline double softplus(double x) { return log(1.0 + exp(x)); }

void conv2d_forward(const double *image, const double *kernels, const double *bias,
                    double *out)
{
    const double (*img)[H][W] = (const double (*)[H][W])image;
    const double (*ker)[CIN][K][K] = (const double (*)[CIN][K][K])kernels;
    double (*res)[HO][WO] = (double (*)[HO][WO])out;
    int co, ci, i, j, p, q;

    for (co = 0; co < COUT; co++)
        for (i = 0; i < HO; i++)
            for (j = 0; j < WO; j++) {
                double acc = bias[co];
                for (ci = 0; ci < CIN; ci++)
                    for (p = 0; p < K; p++)
                        for (q = 0; q < K; q++)
                            acc += ker[co][ci][p][q] * img[ci][i + p][j + q];
                res[co][i][j] = softplus(acc);
            }
}
