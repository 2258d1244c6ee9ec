/* adgen-test
head: kinetics_integrate(conc)/(conc logk)
arg conc: float[NSPEC] = {1.0, 0.2, 0.05, 0.0}
arg logk: float[NREAC] = uniform(-1, 0)
arg temp: double = 310.0
arg nsteps: int = 8
tol: 2e-3
dot_tol: 1e-5
*/
/* Mass-action chemical kinetics in single precision (as GPU-bound codes are often
 * written): A + B -> C, C -> A + B, C -> D with Arrhenius-scaled rate constants, a
 * fractional-order term through powf, fixed-step midpoint (RK2) integration.  The
 * temperature comes in double precision; restrict-qualified pointers; a size_t loop
 * counting down with the `i-- > 0` idiom. */
#include <math.h>
#include <stddef.h>

#define NSPEC 4
#define NREAC 3

static void rates(const float *restrict c, const float *restrict k, float *restrict dc)
{
    const float r0 = k[0] * c[0] * c[1];
    const float r1 = k[1] * powf(c[2] + 1e-3f, 1.5f);
    const float r2 = k[2] * c[2];
    dc[0] = -r0 + r1;
    dc[1] = -r0 + r1;
    dc[2] = r0 - r1 - r2;
    dc[3] = r2;
}

void kinetics_integrate(float *conc, const float *logk, double temp, int nsteps)
{
    const float dt = 0.05f;
    float k[NREAC], half[NSPEC], d1[NSPEC], d2[NSPEC];
    const double arrh = exp(-2000.0 * (1.0 / temp - 1.0 / 300.0));
    size_t i;
    int s;
    for (i = NREAC; i-- > 0;)
        k[i] = (float)(arrh * exp((double)logk[i]));
    for (s = 0; s < nsteps; s++) {
        rates(conc, k, d1);
        for (i = 0; i < NSPEC; i++)
            half[i] = conc[i] + 0.5f * dt * d1[i];
        rates(half, k, d2);
        for (i = 0; i < NSPEC; i++)
            conc[i] += dt * d2[i];
    }
}
