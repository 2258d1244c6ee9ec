/* Checks step_b and step_d of system.c against each other (dot-product test) and
 * against central finite differences of step; prints PASS. */
#include <stdio.h>
#include "system.c"   /* the primal, and its types */

void step_b(System *s, System *sb, double dt);
void step_d(System *s, System *sd, double dt);

static double *value(System *s, int k)
{
    if (k == 8)
        return &s->scale;
    return k % 4 == 3 ? &s->p[k / 4].m : &s->p[k / 4].x[k % 4];
}

static double dot(System *a, System *b)
{
    double sum = 0.0;
    for (int k = 0; k < 9; k++)
        sum += *value(a, k) * *value(b, k);
    return sum;
}

static void fill(System *s, double seed)
{
    for (int k = 0; k < 9; k++)
        *value(s, k) = sin(seed * (k + 1)) + (k % 4 == 3 ? 2.0 : 0.0);
    s->p[0].id = 1;
    s->p[1].id = 2;
}

int main(void)
{
    System s0, s, v, w, sb, sd, plus, minus;
    double h = 1e-6, dt = 0.1, lhs, rhs, fd = 0.0;
    fill(&s0, 0.3);
    fill(&v, 1.1);
    fill(&w, 2.3);
    s = s0;
    sd = v;
    step_d(&s, &sd, dt);
    s = s0;
    sb = w;
    step_b(&s, &sb, dt);
    lhs = dot(&w, &sd);
    rhs = dot(&sb, &v);
    plus = s0;
    minus = s0;
    for (int k = 0; k < 9; k++) {
        *value(&plus, k) += h * *value(&v, k);
        *value(&minus, k) -= h * *value(&v, k);
    }
    step(&plus, dt);
    step(&minus, dt);
    for (int k = 0; k < 9; k++)
        fd += *value(&w, k) * (*value(&plus, k) - *value(&minus, k)) / (2 * h);
    printf("%.15g %.15g %.15g\n", lhs, rhs, fd);
    if (fabs(lhs - rhs) > 1e-12 * fabs(lhs) || fabs(fd - lhs) > 1e-6 * fabs(lhs))
        return 1;
    printf("PASS\n");
    return 0;
}
