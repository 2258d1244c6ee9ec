/* adgen-test
head: biquad_loss(biquad_loss)/(coef)
arg n: int = 32
arg input: float[n] = uniform(-1, 1)
arg target: float[n] = uniform(-0.5, 0.5)
arg coef: float[5] = {0.2f, 0.1f, 0.05f, -0.3f, 0.1f}
tol: 2e-3
dot_tol: 1e-5
*/
/* Audio DSP in single precision: a biquad IIR filter (direct form I) run over a buffer,
 * and a float-valued loss (mean squared error plus a soft pole-radius penalty) returned
 * as float; the state lives in a small struct updated through a pointer. */
#include <math.h>

typedef struct {
    float x1, x2, y1, y2;
} BiquadState;

static float biquad_tick(BiquadState *s, const float *c, float x)
{
    const float y = c[0] * x + c[1] * s->x1 + c[2] * s->x2 - c[3] * s->y1 - c[4] * s->y2;
    s->x2 = s->x1;
    s->x1 = x;
    s->y2 = s->y1;
    s->y1 = y;
    return y;
}

float biquad_loss(int n, const float *input, const float *target, const float *coef)
{
    BiquadState st = {0.0f, 0.0f, 0.0f, 0.0f};
    float err = 0.0f, radius2;
    int i;
    for (i = 0; i < n; i++) {
        const float y = biquad_tick(&st, coef, input[i]);
        const float d = y - target[i];
        err += d * d;
    }
    radius2 = coef[4];  /* product of the poles for a complex pair */
    return err / (float)n + 0.1f * expf(4.0f * (radius2 - 0.9f));
}
