/* adgen-test
head: sph_density(rho)/(xy h)
arg n: int = 6
arg xy: double[2*n] = uniform(0, 1)
arg h: double = uniform(0.6, 0.8)
arg rho: double[n]
*/
/* SPH-style density estimate with particles stored as an array of structs on the heap:
 * the loops walk the array with struct pointers (`for (Particle *p = ps; p < ps + n;
 * ++p)`), helpers take `Particle *` and update fields through `->`.  Cubic-spline-like
 * smooth kernel (a Wendland C2 function, its support wider than the box). */
#include <math.h>
#include <stdlib.h>

typedef struct {
    double x, y;
    double mass;
    double rho;
} Particle;

static double wendland(double r, double h)
{
    const double q = r / h;
    const double a = 1.0 - 0.5 * q;
    return a * a * a * a * (2.0 * q + 1.0) * 7.0 / (4.0 * 3.141592653589793 * h * h);
}

static void accumulate(Particle *dst, const Particle *src, double h)
{
    const double dx = dst->x - src->x, dy = dst->y - src->y;
    dst->rho += src->mass * wendland(sqrt(dx * dx + dy * dy + 1e-12), h);
}

void sph_density(int n, const double *xy, double h, double *rho)
{
    Particle *ps = malloc((size_t)n * sizeof(Particle));
    int i;
    for (i = 0; i < n; i++) {
        ps[i].x = xy[2 * i];
        ps[i].y = xy[2 * i + 1];
        ps[i].mass = 1.0 / n;
        ps[i].rho = 0.0;
    }
    for (Particle *p = ps; p < ps + n; ++p)
        for (const Particle *q = ps; q != ps + n; q++)
            accumulate(p, q, h);
    for (i = 0; i < n; i++)
        rho[i] = ps[i].rho;
    free(ps);
}
