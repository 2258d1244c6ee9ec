/* A head taking a struct by pointer: step(s)/(s) (tests/test_struct_heads.py). The
 * struct holds an array of structs with array fields, a scalar and an int. */
#include <math.h>

typedef struct {
    double x[3];
    double m;
    int id;
} Particle;

typedef struct {
    Particle p[2];
    double scale;
} System;

void step(System *s, double dt)
{
    int k, i;
    double d[3], r2 = 0.0;
    for (i = 0; i < 3; i++) {
        d[i] = s->p[1].x[i] - s->p[0].x[i];
        r2 += d[i] * d[i];
    }
    for (k = 0; k < 2; k++) {
        double sign = k == 0 ? 1.0 : -1.0;
        for (i = 0; i < 3; i++)
            s->p[k].x[i] += dt * sign * s->scale * s->p[1 - k].m * d[i] / (1.0 + r2);
        s->p[k].m *= exp(-dt * r2);
    }
    s->scale = s->scale * sqrt(1.0 + r2);
}
