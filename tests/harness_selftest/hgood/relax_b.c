#include <math.h>
typedef struct { int n; double s; double *v; } Vec;
void relax_b(Vec *v, Vec *vb)
{
    double old[16], s = v->s, sb;
    int i;
    for (i = 0; i < v->n; i++) {
        old[i] = v->v[i];
        v->v[i] = s * cos(old[i]);
    }
    v->s = 0.5 * s;
    sb = 0.5 * vb->s;
    for (i = 0; i < v->n; i++) {
        sb += cos(old[i]) * vb->v[i];
        vb->v[i] = -s * sin(old[i]) * vb->v[i];
    }
    vb->s = sb;
}
