/* adgen-test
head: smooth_signal(y)/(x)
arg x: double[NPOINTS]
arg y: double[NPOINTS]
*/
/* #define constants: sizes of local arrays, loop bounds, coefficients, and conditional
 * compilation with #if / #ifdef. */
#define NPOINTS 10
#define HALF_WIDTH 2
#define WINDOW (2 * HALF_WIDTH + 1)
#define DECAY 0.35
#define USE_GAIN 1

void smooth_signal(const double *x, double *y)
{
    double kernel[WINDOW];
    double norm = 0.0;
    int i, k;
    for (k = 0; k < WINDOW; k++) {
        int off = k - HALF_WIDTH;
        kernel[k] = 1.0 / (1.0 + DECAY * off * off);
        norm += kernel[k];
    }
    for (i = 0; i < NPOINTS; i++) {
        double acc = 0.0;
        for (k = 0; k < WINDOW; k++) {
            int j = i + k - HALF_WIDTH;
            if (j < 0)
                j = -j;
            if (j >= NPOINTS)
                j = 2 * (NPOINTS - 1) - j;
            acc += kernel[k] * x[j];
        }
        y[i] = acc / norm;
#if USE_GAIN
        y[i] *= 1.0 + 0.1 * y[i];
#endif
#ifdef UNDEFINED_FEATURE
        y[i] = 0.0;
#endif
    }
}
